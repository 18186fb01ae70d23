// A stable content hash for versioning configurations and naming sources.

/// FNV-1a, 64-bit (Fowler, Noll, Vo; parameters from the FNV reference at isthe.com/chongo/tech/comp/fnv:
/// offset basis 0xcbf29ce484222325, prime 0x100000001b3). Not cryptographic: it names content
/// stably, it does not defend against forgery.
public struct FNV1a64: Sendable {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01b3
    /// The hash of the bytes fed so far.
    public var value: UInt64 { state }
    @usableFromInline var state: UInt64 = FNV1a64.offsetBasis

    public init() {}

    /// Feeds bytes into the hash. Inlinable, so a caller in another module gets the loop
    /// compiled for its own sequence type (`ByteInput` hashes every byte it reads through this,
    /// as an `UnsafeBufferPointer`, as fast as a hand-written loop over the buffer).
    @inlinable
    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        var h = state
        for b in bytes { h = (h ^ UInt64(b)) &* FNV1a64.prime }
        state = h
    }

    /// The hash as 16 lowercase hex digits.
    public var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The hash of a string's UTF-8 bytes, as 16 hex digits.
    public static func hex(_ text: String) -> String {
        var h = FNV1a64()
        h.update(text.utf8)
        return h.hex
    }
}
