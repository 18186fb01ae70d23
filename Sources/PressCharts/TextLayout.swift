/// Label placement without a font engine: widths are estimated, then labels are thinned or
/// moved so none overlap.
public enum TextLayout {
    /// Estimated advance of one character, in ems. DejaVu Sans (Debian's default sans-serif and
    /// Chromium's fallback here) has 0.636 em digits; Helvetica/Arial 0.556 em. 0.64 bounds both,
    /// so estimated boxes are never narrower than the drawn text for digits and most letters.
    public static let averageCharacterWidth = 0.64

    /// Minimum free space between two neighbouring labels, in pixels.
    public static let labelGap = 4.0

    /// The estimated width in pixels of `text` at `fontSize` pixels.
    public static func estimatedWidth(_ text: String, fontSize: Double) -> Double {
        Double(text.count) * averageCharacterWidth * fontSize
    }

    /// The smallest stride k such that labelling every k-th tick (indices 0, k, 2k, …) leaves at
    /// least `labelGap` between neighbouring labels. `positions` are label centres along the
    /// axis (ascending or descending), `extents` each label's size along the axis (its width on
    /// a horizontal axis, its line height on a vertical one).
    public static func labelStride(positions: [Double], extents: [Double], gap: Double = labelGap) -> Int {
        precondition(positions.count == extents.count, "one extent per position")
        guard positions.count > 1 else { return 1 }
        for stride in 1..<positions.count {
            var fits = true
            var i = 0
            while i + stride < positions.count {
                let j = i + stride
                if abs(positions[j] - positions[i]) < (extents[i] + extents[j]) / 2 + gap {
                    fits = false
                    break
                }
                i = j
            }
            if fits { return stride }
        }
        return positions.count
    }

    /// Places labels along one axis so that no two overlap: each wants to be centred at
    /// `desired[i]` with size `extents[i]`; labels are processed in order of desired position and
    /// pushed forward (down, or right) just enough to clear the previous one by `gap`, then the
    /// whole run is shifted back if it passes `limit`. Returns the placed centres in input order.
    public static func spread(desired: [Double], extents: [Double], gap: Double = labelGap, limit: Double = .infinity) -> [Double] {
        precondition(desired.count == extents.count, "one extent per label")
        let order = desired.indices.sorted { desired[$0] < desired[$1] }
        var placed = desired
        var previousEnd = -Double.infinity
        for index in order {
            let start = max(desired[index] - extents[index] / 2, previousEnd + gap)
            placed[index] = start + extents[index] / 2
            previousEnd = start + extents[index]
        }
        if previousEnd > limit {
            let shift = previousEnd - limit
            for index in order { placed[index] -= shift }
        }
        return placed
    }

    /// Assigns each label a row (0, 1, 2, …) so labels in the same row do not overlap: labels
    /// centred at `centres` with widths `widths` are taken left to right and put in the first row
    /// whose last label ends at least `gap` before this one starts. Returns one row per label.
    public static func rows(centres: [Double], widths: [Double], gap: Double = labelGap) -> [Int] {
        precondition(centres.count == widths.count, "one width per label")
        let order = centres.indices.sorted { centres[$0] < centres[$1] }
        var rowEnds: [Double] = []
        var rows = Array(repeating: 0, count: centres.count)
        for index in order {
            let start = centres[index] - widths[index] / 2
            if let row = rowEnds.firstIndex(where: { $0 + gap <= start }) {
                rows[index] = row
                rowEnds[row] = start + widths[index]
            } else {
                rows[index] = rowEnds.count
                rowEnds.append(start + widths[index])
            }
        }
        return rows
    }
}
