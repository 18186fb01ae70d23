/// The style sheet charts and pages use. SVG elements carry classes only (no fills or strokes of
/// their own), so these rules — custom properties switched by `prefers-color-scheme: dark` and
/// reset for `@media print` — theme every chart on the page.
///
/// Series colours are the Okabe–Ito colour-blind-safe palette (Okabe & Ito, "Color Universal
/// Design", 2008), with lighter tints of the same hues for dark mode; series also differ by dash
/// pattern so colour is never the only cue. Better/worse colours are green/red, always paired
/// with a marker shape and a word. Reference lines are purple (a hue no series uses) and dashed.
public enum ChartTheme {
    /// How many series colours (and dash patterns) exist before they repeat.
    public static let seriesCount = 6

    /// The font stack: locally installed fonts only (no web fonts, no network).
    public static let fontStack = "system-ui, -apple-system, \"Segoe UI\", Roboto, \"DejaVu Sans\", \"Liberation Sans\", Arial, sans-serif"

    /// The CSS class of series `index` (`pc-s0` … `pc-s5`, repeating).
    public static func seriesClass(_ index: Int) -> String {
        "pc-s\(((index % seriesCount) + seriesCount) % seriesCount)"
    }

    /// Custom properties and chart rules; valid both in an HTML `<style>` and inside an SVG
    /// `<style>` (it contains no '<' or '&').
    public static let chartCSS = """
    :root {
      --pc-bg: #ffffff; --pc-fg: #1b1b1f; --pc-muted: #55585e; --pc-grid: #e2e3e8; --pc-axis: #6b6e76;
      --pc-band: rgba(0, 114, 178, 0.10); --pc-threshold: #0072b2; --pc-marker: #55585e; --pc-ref: #6a3d9a;
      --pc-better: #1a7f37; --pc-worse: #c62828; --pc-neutral: #7a7d85;
      --pc-s0: #0072b2; --pc-s1: #d55e00; --pc-s2: #009e73; --pc-s3: #cc79a7; --pc-s4: #8a6d00; --pc-s5: #56b4e9;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --pc-bg: #16171b; --pc-fg: #e8e8ec; --pc-muted: #a9acb4; --pc-grid: #2e3037; --pc-axis: #8d9098;
        --pc-band: rgba(86, 180, 233, 0.16); --pc-threshold: #56b4e9; --pc-marker: #a9acb4; --pc-ref: #c9b0ff;
        --pc-better: #4cc26e; --pc-worse: #ff6b6b; --pc-neutral: #8d9098;
        --pc-s0: #56b4e9; --pc-s1: #ff9e5e; --pc-s2: #3fd0a4; --pc-s3: #e6a3c8; --pc-s4: #f0e442; --pc-s5: #a3d8f5;
      }
    }
    svg.pc-chart { font-family: \(fontStack); background: var(--pc-bg); color: var(--pc-fg); }
    .pc-chart text { fill: var(--pc-fg); font-size: 12px; }
    .pc-chart .pc-tick-label, .pc-chart .pc-note { fill: var(--pc-muted); }
    .pc-chart .pc-axis-title { font-size: 13px; font-weight: 600; }
    .pc-chart .pc-empty { font-size: 14px; fill: var(--pc-muted); }
    .pc-grid { stroke: var(--pc-grid); stroke-width: 1; }
    .pc-axis { stroke: var(--pc-axis); stroke-width: 1; }
    .pc-tick { stroke: var(--pc-axis); stroke-width: 1; }
    .pc-band { fill: var(--pc-band); stroke: none; }
    .pc-threshold { stroke: var(--pc-threshold); stroke-width: 1; stroke-dasharray: 4 3; }
    .pc-marker { stroke: var(--pc-marker); stroke-width: 1.5; stroke-dasharray: 2 3; }
    .pc-ref { stroke: var(--pc-ref); stroke-width: 1.5; stroke-dasharray: 6 3; }
    .pc-chart .pc-ref-label { fill: var(--pc-ref); font-weight: 600; }
    .pc-zero { stroke: var(--pc-fg); stroke-width: 1; }
    .pc-line { fill: none; stroke-width: 2; stroke-linejoin: round; }
    .pc-line.pc-s0 { stroke: var(--pc-s0); } .pc-line.pc-s1 { stroke: var(--pc-s1); stroke-dasharray: 8 3; }
    .pc-line.pc-s2 { stroke: var(--pc-s2); stroke-dasharray: 2 2; } .pc-line.pc-s3 { stroke: var(--pc-s3); stroke-dasharray: 8 3 2 3; }
    .pc-line.pc-s4 { stroke: var(--pc-s4); stroke-dasharray: 12 4; } .pc-line.pc-s5 { stroke: var(--pc-s5); stroke-dasharray: 4 4; }
    .pc-dot.pc-s0, .pc-bar.pc-s0 { fill: var(--pc-s0); } .pc-dot.pc-s1, .pc-bar.pc-s1 { fill: var(--pc-s1); }
    .pc-dot.pc-s2, .pc-bar.pc-s2 { fill: var(--pc-s2); } .pc-dot.pc-s3, .pc-bar.pc-s3 { fill: var(--pc-s3); }
    .pc-dot.pc-s4, .pc-bar.pc-s4 { fill: var(--pc-s4); } .pc-dot.pc-s5, .pc-bar.pc-s5 { fill: var(--pc-s5); }
    .pc-dot { stroke: var(--pc-bg); stroke-width: 1; }
    .pc-bar { opacity: 0.85; }
    .pc-whisker { stroke: var(--pc-fg); stroke-width: 1.5; }
    .pc-better { fill: var(--pc-better); stroke: var(--pc-better); }
    .pc-worse { fill: var(--pc-worse); stroke: var(--pc-worse); }
    .pc-neutral { fill: none; stroke: var(--pc-neutral); stroke-width: 1.5; }
    .pc-whisker.pc-better, .pc-whisker.pc-worse { fill: none; stroke-width: 2; }
    .pc-chart text.pc-better { fill: var(--pc-better); stroke: none; font-weight: 600; }
    .pc-chart text.pc-worse { fill: var(--pc-worse); stroke: none; font-weight: 600; }
    .pc-chart text.pc-neutral { fill: var(--pc-muted); stroke: none; }
    .pc-heat { stroke: var(--pc-bg); stroke-width: 1; }
    .pc-heat0 { fill: #440154; } .pc-heat1 { fill: #443983; } .pc-heat2 { fill: #31688e; } .pc-heat3 { fill: #21918c; }
    .pc-heat4 { fill: #35b779; } .pc-heat5 { fill: #90d743; } .pc-heat6 { fill: #fde725; }
    .pc-heat-none { fill: var(--pc-grid); }
    .pc-heat-frontier { fill: none; stroke: var(--pc-fg); stroke-width: 2.5; }
    .pc-chart text.pc-heat-on-dark { fill: #ffffff; } .pc-chart text.pc-heat-on-light { fill: #1b1b1f; }
    @media print {
      :root {
        --pc-bg: #ffffff; --pc-fg: #000000; --pc-muted: #333333; --pc-grid: #cccccc; --pc-axis: #555555;
        --pc-band: rgba(0, 0, 0, 0.08); --pc-threshold: #0072b2; --pc-marker: #333333; --pc-ref: #6a3d9a;
        --pc-better: #1a7f37; --pc-worse: #c62828; --pc-neutral: #666666;
        --pc-s0: #0072b2; --pc-s1: #d55e00; --pc-s2: #009e73; --pc-s3: #cc79a7; --pc-s4: #8a6d00; --pc-s5: #56b4e9;
      }
    }
    """
}
