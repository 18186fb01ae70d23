/// A linear map from a data domain to a pixel range: `range.0` is where `domain.0` lands and
/// `range.1` where `domain.1` lands, so a y axis whose values grow upwards uses a range
/// `(bottom, top)` with bottom > top (SVG's y grows downwards).
///
/// value ↦ r₀ + (value − d₀) / (d₁ − d₀) × (r₁ − r₀). Values outside the domain extrapolate.
/// A degenerate domain (d₀ = d₁) maps every value to the middle of the range.
public struct LinearScale: Sendable, Equatable {
    /// The data values at the two ends (any unit: milliseconds, scale factor, percent).
    public let domainStart: Double
    public let domainEnd: Double
    /// The pixel coordinates (SVG user units) the two domain ends map to.
    public let rangeStart: Double
    public let rangeEnd: Double

    /// A scale mapping `domain.0 → range.0` and `domain.1 → range.1`.
    public init(domain: (Double, Double), range: (Double, Double)) {
        domainStart = domain.0
        domainEnd = domain.1
        rangeStart = range.0
        rangeEnd = range.1
    }

    /// The pixel coordinate of a data value.
    public func callAsFunction(_ value: Double) -> Double {
        let span = domainEnd - domainStart
        guard span != 0 else { return (rangeStart + rangeEnd) / 2 }
        return rangeStart + (value - domainStart) / span * (rangeEnd - rangeStart)
    }

    /// The data value at a pixel coordinate (the inverse map); the domain's middle when the
    /// range is degenerate.
    public func invert(_ pixel: Double) -> Double {
        let span = rangeEnd - rangeStart
        guard span != 0 else { return (domainStart + domainEnd) / 2 }
        return domainStart + (pixel - rangeStart) / span * (domainEnd - domainStart)
    }
}
