// Which users' presses are recorded: a stable hash of the user id against a rate, so a user is
// in or out for good (every session of a sampled user is kept, and per-user analyses stay whole).
import PressCore

/// Samples users by FNV-1a 64 of their id's UTF-8 bytes (`FNV1a64`, pressdb's content hash),
/// mixed by SplitMix64's output function (`SplitMix64.mix`, a bijection): the result's top 53
/// bits as a fraction of 2⁵³ below `rate` means recorded. The same id gives the same answer on
/// every device, launch and version. The mix is needed because FNV-1a's top bits hardly change
/// with an id's last bytes, so ids that differ only there (`user-1`, `user-2`, …) were kept at a
/// share far from the rate (`UserSamplingTests`); mixed, the share is the rate.
public struct UserSampling: Hashable, Sendable {
    /// The share of users recorded, 0…1 (clamped; NaN records nobody).
    public var rate: Double

    public init(rate: Double) { self.rate = rate.isNaN ? 0 : min(max(rate, 0), 1) }

    /// Everyone.
    public static let everyone = UserSampling(rate: 1)

    /// The id's place in [0, 1): its mixed hash's top 53 bits over 2⁵³.
    public static func position(of id: String) -> Double {
        var h = FNV1a64()
        h.update(id.utf8)
        return Double(SplitMix64.mix(h.value) >> 11) * 0x1p-53
    }

    /// Whether presses of `id` are recorded.
    public func includes(_ id: String) -> Bool {
        rate >= 1 || UserSampling.position(of: id) < rate
    }
}
