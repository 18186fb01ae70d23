import Testing

/// Expects |actual − expected| ≤ tolerance, naming both values on failure.
func expectClose(_ actual: Double, _ expected: Double, tolerance: Double,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(actual - expected) <= tolerance, "\(actual) is not within \(tolerance) of \(expected)",
            sourceLocation: sourceLocation)
}

/// Expects a relative error ≤ tolerance.
func expectRelativelyClose(_ actual: Double, _ expected: Double, tolerance: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(actual - expected) <= tolerance * abs(expected),
            "\(actual) is not within a relative \(tolerance) of \(expected)", sourceLocation: sourceLocation)
}
