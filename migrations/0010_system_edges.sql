-- pressdb schema version 10: the session attributes `window` and `system_gestures`
-- (docs/press-model.md §5.3).
--
-- `window` is the app window's size in points as text, `<width>x<height>` (`390x844`);
-- `system_gestures` the system edge gestures active, `back`, `home`, `back+home` or `none`.
-- NULL is "not given": replay then applies no edge rule, as before this version. Neither is a
-- report key, so `session_results` is unchanged.

ALTER TABLE sessions ADD COLUMN window TEXT;
ALTER TABLE pending ADD COLUMN window TEXT;
ALTER TABLE sessions ADD COLUMN system_gestures TEXT;
ALTER TABLE pending ADD COLUMN system_gestures TEXT;
