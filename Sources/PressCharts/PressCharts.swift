// SVG charts for pressdb's HTML reports.
