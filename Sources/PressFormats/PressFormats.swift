// Log formats → records. Each parser turns bytes into TouchRecord values or rejects with a reason.
