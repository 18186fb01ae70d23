// PressCharts — small, dependency-free SVG charts and a self-contained HTML page builder for
// pressdb's reports.
//
// Layering, so geometry can be tested without reading SVG:
//   numbers  → `LinearScale`, `NiceTicks` (Heckbert's nice numbers), `NumberText`
//   geometry → each chart's `layout()` returns a value with every pixel position it will draw
//   drawing  → `svgContent()` turns that layout into SVG elements; `Chart.svg(id:)` wraps them
//   page     → `HTMLPage` assembles headings, banners, tables and figures into one HTML file.
//
// Charts take plain data (arrays of numbers and labels), not pressdb's own types.
