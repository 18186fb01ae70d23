// A synthetic touch log: sessions of the finger model on randomly placed buttons, assigned to
// experiment arms, sampled at a display rate, and interleaved in time like merged device logs.

/// One arm of the synthetic experiment: the variant name, the configuration its sessions carry,
/// its share of the sessions (a relative weight), and how its fingers behave.
public struct SyntheticArm: Hashable, Sendable {
    public var variant: String
    public var config: String
    /// Relative weight; the shares are the weights over their sum.
    public var weight: Double
    /// Behaviour mix of this arm's fingers. The same in every arm unless an effect is asked for,
    /// so that arms differ only by the configuration they name.
    public var behaviors: BehaviorMix
    public init(variant: String, config: String, weight: Double = 1, behaviors: BehaviorMix = .standard) {
        self.variant = variant; self.config = config; self.weight = weight; self.behaviors = behaviors
    }
}

/// A container and its relative weight among the sessions.
public struct ContainerShare: Hashable, Sendable {
    public var container: Container
    public var weight: Double
    public init(_ container: Container, weight: Double = 1) { self.container = container; self.weight = weight }
}

/// Why a synthetic log configuration cannot be used.
public struct SyntheticLogError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How a synthetic session gets its arm (`pressdb generate --assign`).
public enum SyntheticAssignment: String, CaseIterable, Hashable, Sendable {
    /// Each user draws an arm once, with the arms' shares, and keeps it for all their sessions
    /// (sticky bucketing, as apps assign variants); each user has persistent finger traits
    /// (`UserTraits`). The default.
    case user
    /// Each session draws its own arm and every finger is alike: a user meets both arms. The
    /// generator's behaviour before issue 14, touch for touch.
    case session
}

/// Everything that determines a synthetic log. Two equal configurations give the same log.
public struct SyntheticLogConfiguration: Hashable, Sendable {
    /// Number of sessions (touches).
    public var sessions: Int
    public var seed: UInt64
    public var arms: [SyntheticArm]
    public var containers: [ContainerShare]
    /// Touch sample rate in Hz (60 by default; 120 for ProMotion displays).
    public var sampleRate: Double
    public var finger: FingerModel
    /// Mean time between two touch-downs in the merged log, exponentially distributed: 0.04 s.
    /// With touches lasting ~0.1–1 s, several sessions are in flight at once.
    public var meanTouchDownGap: Double
    /// Mean sessions per user: 20; there are ⌈sessions / 20⌉ users, each session's user drawn
    /// uniformly.
    public var sessionsPerUser: Int
    /// Per user (sticky arms, persistent traits) or per session.
    public var assignment: SyntheticAssignment
    /// The retry behaviour (docs/generator.md): after a press that likely failed — its finger
    /// dragged out, flicked or was cancelled by the system, or a tap quicker than
    /// `quickTapDuration` (likely unseen) — the same user presses the same control again with this
    /// probability, `retryDelay` seconds after the lift. A retry may fail and be retried in turn.
    /// Retries come on top of `sessions`; 0 (the default) adds none and leaves the log unchanged.
    public var retryProbability: Double = 0
    /// The share of users re-bucketed (`--cross-arm-users`, by user only): each session of such a
    /// user draws its arm afresh, so the user meets both arms, as after a reinstall or a changed
    /// allocation. 0 (the default) leaves the log unchanged.
    public var crossArmUsers: Double = 0
    /// The share of sessions logged without a user (`--missing-user`): a session drops its `user`
    /// with this probability and keeps its user's arm, as a logged-out press does. 0: unchanged.
    public var missingUser: Double = 0
    /// The share of all sessions one user (the first, `s<seed>-u1`) makes (`--whale`); the others'
    /// users are drawn uniformly from the rest. 0 (the default): every user drawn uniformly.
    public var whaleShare: Double = 0
    /// Days of pre-period before the experiment (`--pre-period DAYS`): sessions without a variant,
    /// under the first arm's configuration, of the same users with their own traits, before the
    /// experiment's first touch-down — the history CUPED reads. The experiment is taken to last
    /// `experimentDays`, so the pre-period has `sessions × DAYS / experimentDays` sessions. 0 (the
    /// default): none, and the log is unchanged.
    public var prePeriodDays: Double = 0
    /// How long the generated experiment is taken to last, for `prePeriodDays`: a week, the
    /// shortest run Kohavi, Tang & Xu (Trustworthy Online Controlled Experiments, 2020) advise, so
    /// that every weekday is in it.
    public static let experimentDays = 7.0
    /// The number of pre-period sessions, before the experiment's.
    public var prePeriodSessions: Int { Int((Double(sessions) * prePeriodDays / Self.experimentDays).rounded()) }
    /// Seconds from a failed press's lift to its retry's touch-down: uniform 0.2–1.5 s.
    public static let retryDelay = 0.2...1.5
    /// A tap this short (s) likely ends before any frame shows it: it may be retried.
    public static let quickTapDuration = 0.1

    /// Screens a control can be on.
    public static let screens = ["feed", "search", "product", "cart", "profile", "settings"]
    /// Control ids.
    public static let controls = ["buy", "like", "share", "follow", "add-to-cart", "play", "send", "close"]
    /// App versions, each marked with SemVer build metadata `+synthetic` (semver.org §10) so that a
    /// synthetic session is never mistaken for real data, in NDJSON and CSV alike.
    public static let appVersions = ["3.1.4+synthetic", "3.2.0+synthetic", "3.2.1+synthetic"]
    /// The default arms: A = spring-press, B = expand-delayed-click, 50/50.
    public static let defaultArms = [SyntheticArm(variant: "A", config: "spring-press"),
                                     SyntheticArm(variant: "B", config: "expand-delayed-click")]
    /// The default containers: none 2, scroll 2, table 1 (40 % / 40 % / 20 %).
    public static let defaultContainers = [ContainerShare(.none, weight: 2), ContainerShare(.scroll, weight: 2),
                                           ContainerShare(.table, weight: 1)]
    /// Scroll axes of a `scroll` or `scroll-immediate` container: vertical 0.8, horizontal 0.15,
    /// both 0.05. A `table` always scrolls vertically (UITableView).
    public static let scrollAxisWeights: [(ScrollAxis, Double)] = [(.vertical, 0.8), (.horizontal, 0.15), (.both, 0.05)]
    /// Share of controls 44 pt high (Apple's minimum hit target); the rest are 44–60 pt.
    public static let standardHeightShare = 0.7
    /// Control widths: 44–120 pt, uniform.
    public static let controlWidths = 44...120
    /// Control heights when not 44: 44–60 pt, uniform.
    public static let controlHeights = 44...60
    /// Frames keep this far from the screen's sides (pt)...
    public static let sideInset = 16
    /// ...and from its top and bottom (pt), leaving room for navigation and tab bars.
    public static let verticalInset = 120

    public init(sessions: Int = 1000, seed: UInt64 = 1, arms: [SyntheticArm] = SyntheticLogConfiguration.defaultArms,
                containers: [ContainerShare] = SyntheticLogConfiguration.defaultContainers,
                sampleRate: Double = 60, finger: FingerModel = FingerModel(),
                meanTouchDownGap: Double = 0.04, sessionsPerUser: Int = 20, assignment: SyntheticAssignment = .user) {
        self.sessions = sessions; self.seed = seed; self.arms = arms; self.containers = containers
        self.sampleRate = sampleRate; self.finger = finger; self.meanTouchDownGap = meanTouchDownGap
        self.sessionsPerUser = sessionsPerUser; self.assignment = assignment
    }

    /// The user id of user `index` (from 0): `s<seed>-u<index + 1>`, so two seeds never share a user
    /// or a session id and their logs can be ingested into one database.
    public func user(_ index: Int) -> String { "s\(seed)-u\(index + 1)" }

    /// Throws a `SyntheticLogError` naming the first thing wrong.
    public func validate() throws {
        if sessions < 0 { throw SyntheticLogError("the number of sessions must not be negative") }
        if arms.isEmpty { throw SyntheticLogError("at least one variant is needed") }
        var seen = Set<String>()
        for a in arms {
            if a.variant.isEmpty || a.config.isEmpty { throw SyntheticLogError("a variant needs a name and a configuration") }
            if !seen.insert(a.variant).inserted { throw SyntheticLogError("variant '\(a.variant)' is given twice") }
            if !(a.weight >= 0 && a.weight.isFinite) { throw SyntheticLogError("variant '\(a.variant)' has a negative share") }
        }
        if !arms.contains(where: { $0.weight > 0 }) { throw SyntheticLogError("the split gives every variant 0 sessions") }
        if containers.isEmpty || !containers.contains(where: { $0.weight > 0 })
            || containers.contains(where: { !($0.weight >= 0 && $0.weight.isFinite) }) {
            throw SyntheticLogError("container weights must be non-negative and not all 0")
        }
        if !(sampleRate >= 1 && sampleRate <= 1000) { throw SyntheticLogError("the sample rate must be 1–1000 Hz") }
        if !(meanTouchDownGap > 0) || sessionsPerUser < 1 { throw SyntheticLogError("bad session spacing") }
        if !(retryProbability >= 0 && retryProbability < 1) { throw SyntheticLogError("the retry probability must lie in [0, 1)") }
        if !(crossArmUsers >= 0 && crossArmUsers <= 1) { throw SyntheticLogError("the share of users crossing arms must lie in [0, 1]") }
        if crossArmUsers > 0 && assignment != .user {
            throw SyntheticLogError("users cross arms only when arms are assigned per user (--assign user)")
        }
        if !(missingUser >= 0 && missingUser <= 1) { throw SyntheticLogError("the share of sessions without a user must lie in [0, 1]") }
        if !(whaleShare >= 0 && whaleShare < 1) { throw SyntheticLogError("the heavy user's share of the sessions must lie in [0, 1)") }
        if !(prePeriodDays >= 0 && prePeriodDays <= 365) { throw SyntheticLogError("the pre-period must be 0 to 365 days") }
        if whaleShare > 0 && sessions < 2 * sessionsPerUser { throw SyntheticLogError("a heavy user needs at least two users: \(2 * sessionsPerUser) sessions or more") }
    }
}

/// One sample of a synthetic session in fixed point: time in whole microseconds, position in
/// hundredths of a point. Written as decimals, these read back exactly as `t`, `x`, `y`.
public struct SyntheticSample: Hashable, Sendable {
    /// Time in microseconds on the log's clock.
    public var microseconds: Int
    /// x in hundredths of a point.
    public var xHundredths: Int
    /// y in hundredths of a point.
    public var yHundredths: Int
    public var phase: TouchPhase
    public init(microseconds: Int, xHundredths: Int, yHundredths: Int, phase: TouchPhase) {
        self.microseconds = microseconds; self.xHundredths = xHundredths; self.yHundredths = yHundredths
        self.phase = phase
    }
    /// Seconds: microseconds / 10⁶ (the Double nearest the decimal the writer prints).
    public var t: Double { Double(microseconds) / 1_000_000 }
    /// Points: hundredths / 100.
    public var x: Double { Double(xHundredths) / 100 }
    public var y: Double { Double(yHundredths) / 100 }
    public var touchSample: TouchSample { TouchSample(t: t, x: x, y: y, phase: phase) }
}

/// One synthetic session: its attributes (as a `began` record carries them) and its samples,
/// `began` first and one `ended` or `cancelled` last.
public struct SyntheticSession: Hashable, Sendable {
    /// `s<seed>-u<user>-<nnnn>`: the user (`SyntheticLogConfiguration.user(_:)`) and the user's
    /// session count, from 1, at least four digits.
    public var id: String
    /// The attributes the generator gives, `SyntheticSession.attributes` (every one set but the
    /// scroll axis outside scroll views): the user, variant, config, control, screen, app
    /// version, the control's frame (whole points), the container and its scroll axis.
    public var attributes: SessionAttributes
    /// The arm's index in the configuration.
    public var arm: Int
    /// What the finger did: ground truth for tests; not written to the log.
    public var behavior: FingerBehavior
    /// The user's traits (`--assign user`; nil by session): ground truth, not written either.
    public var traits: UserTraits?
    public var samples: [SyntheticSample]

    /// The attributes a synthetic session gives, in the order the log writes them (a CSV log's
    /// columns after the sample's five: docs/generator.md). Not `device`: the model has none.
    public static let attributes: [SessionAttribute] = [.config, .variant, .control, .frame, .container, .scrollAxis,
                                                         .user, .screen, .appVersion]

    public init(id: String, attributes: SessionAttributes, arm: Int, behavior: FingerBehavior,
                traits: UserTraits? = nil, samples: [SyntheticSample]) {
        self.id = id; self.attributes = attributes; self.arm = arm; self.behavior = behavior; self.traits = traits
        self.samples = samples
    }
}

/// Produces a configuration's sessions in touch-down order. Each session's draws come from its
/// own SplitMix64 streams (layout, arm assignment, finger), and by user each user's from two more
/// (the user's arm, the user's traits), so the arm is drawn independently of everything the
/// finger does.
public struct SyntheticSessionGenerator: IteratorProtocol, Sendable {
    public let configuration: SyntheticLogConfiguration
    /// Stream numbers of `SplitMix64(seed:index:stream:)`: per session (index = the session's) the
    /// first three, per user (index = the user's) the last two.
    /// Retries draw from the last two, indexed by the retry's serial number.
    /// The shapes of messy data draw from streams of their own (per user: crossing; per session:
    /// anonymity, whale), so a log without them is the same as before they existed.
    enum Stream: UInt64 {
        case layout = 0, assignment = 1, finger = 2, userAssignment = 3, userTraits = 4, retry = 5, retryFinger = 6
        case crossing = 7, anonymity = 8, whale = 9
        /// A pre-period session's layout, assignment and finger streams, indexed by its number.
        case preLayout = 10, preAssignment = 11, preFinger = 12
    }

    private var index = 0
    /// Pre-period sessions made so far, and per user.
    private var preIndex = 0
    private var prePerUser: [Int]
    private var clock = 0
    private var perUser: [Int]
    private let armWeights: [Double]
    private let containerWeights: [Double]
    /// The next regular session, made ahead so that a retry due earlier comes out first.
    private var upcoming: SyntheticSession?
    /// Retries due, in touch-down order, with what they repeat.
    private var retries: [(session: SyntheticSession, press: RetriedPress)] = []
    private var retryCount = 0

    /// What a retry repeats of the press before it.
    struct RetriedPress {
        var user: Int, arm: Int, down: Point, frame: Rect, container: Container, axis: ScrollAxis?
        var attributes: SessionAttributes, behaviors: BehaviorMix, fingers: FingerModel, traits: UserTraits?
        var id: String
    }

    /// Throws `SyntheticLogError` when the configuration is invalid.
    public init(_ configuration: SyntheticLogConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        let users = max(1, (configuration.sessions + configuration.sessionsPerUser - 1) / configuration.sessionsPerUser)
        perUser = Array(repeating: 0, count: users)
        prePerUser = Array(repeating: 0, count: users)
        armWeights = configuration.arms.map(\.weight)
        containerWeights = configuration.containers.map(\.weight)
    }

    /// The next session in touch-down order: a regular one, or a retry that is due before it.
    public mutating func next() -> SyntheticSession? {
        // The pre-period comes first, with no retries: nothing of it is compared.
        if preIndex < configuration.prePeriodSessions {
            defer { preIndex += 1 }
            return make(prePeriod: true).0
        }
        if upcoming == nil, index < configuration.sessions {
            let (session, press) = regular()
            upcoming = session
            considerRetry(press, behavior: session.behavior, samples: session.samples)
        }
        if let first = retries.first,
           upcoming.map({ first.session.samples[0].microseconds < $0.samples[0].microseconds }) ?? true {
            retries.removeFirst()
            considerRetry(first.press, behavior: first.session.behavior, samples: first.session.samples)
            return first.session
        }
        defer { upcoming = nil }
        return upcoming
    }

    /// With `retryProbability`, after a likely failed press, queues its retry: the same user,
    /// control, frame and arm, touching down `retryDelay` after the lift, near the same point.
    private mutating func considerRetry(_ press: RetriedPress, behavior: FingerBehavior, samples: [SyntheticSample]) {
        let c = configuration
        guard c.retryProbability > 0, let last = samples.last else { return }
        let duration = Double(last.microseconds - samples[0].microseconds) / 1_000_000
        let failed = behavior == .dragOut || behavior == .flick || behavior == .systemCancel
            || (behavior == .tap && duration < SyntheticLogConfiguration.quickTapDuration)
        retryCount += 1
        var draw = SplitMix64(seed: c.seed, index: UInt64(retryCount), stream: Stream.retry.rawValue)
        guard failed, draw.nextUnit() < c.retryProbability else { return }
        var finger = SplitMix64(seed: c.seed, index: UInt64(retryCount), stream: Stream.retryFinger.rawValue)
        let delay = SyntheticLogConfiguration.retryDelay
        let start = last.microseconds + Self.microseconds(delay.lowerBound + draw.nextUnit() * (delay.upperBound - delay.lowerBound))
        let f = press.frame
        let down = Point(x: Self.hundredths(min(max(press.down.x + finger.normal() * 3, f.x + 1), f.x + f.width - 1)),
                         y: Self.hundredths(min(max(press.down.y + finger.normal() * 3, f.y + 1), f.y + f.height - 1)))
        let again = press.behaviors.draw(scrollContainer: press.container.isScrollView, using: &finger)
        let interval = 1 / c.sampleRate
        let path = press.fingers.path(again, start: down, frame: f, axis: press.axis, sampleInterval: interval, using: &finger)
        let retrySamples = Self.sample(path, start: start, interval: interval, model: press.fingers, using: &finger)
        var next = press
        next.id = press.id + "r"
        next.down = down
        let session = SyntheticSession(id: next.id, attributes: press.attributes, arm: press.arm, behavior: again,
                                       traits: press.traits, samples: retrySamples)
        let at = retries.firstIndex { $0.session.samples[0].microseconds > start } ?? retries.endIndex
        retries.insert((session, next), at: at)
    }

    private mutating func regular() -> (SyntheticSession, RetriedPress) {
        defer { index += 1 }
        return make(prePeriod: false)
    }

    /// An experiment session (number `index`), or with `prePeriod` a pre-period one (number
    /// `preIndex`, from streams of its own): no variant, the first arm's configuration and
    /// behaviours, the user's own traits, id `<user>-p<nnnn>`.
    private mutating func make(prePeriod pre: Bool) -> (SyntheticSession, RetriedPress) {
        let c = configuration
        let model = c.finger
        let n = UInt64(pre ? preIndex : index)
        var layout = SplitMix64(seed: c.seed, index: n, stream: (pre ? Stream.preLayout : .layout).rawValue)
        var assignment = SplitMix64(seed: c.seed, index: n, stream: (pre ? Stream.preAssignment : .assignment).rawValue)
        var finger = SplitMix64(seed: c.seed, index: n, stream: (pre ? Stream.preFinger : .finger).rawValue)

        clock += Self.microseconds(layout.exponential(mean: c.meanTouchDownGap))
        let start = clock
        var user = layout.below(perUser.count)
        if c.whaleShare > 0 && !pre {
            var whale = SplitMix64(seed: c.seed, index: UInt64(index), stream: Stream.whale.rawValue)
            user = whale.nextUnit() < c.whaleShare ? 0 : 1 + whale.below(perUser.count - 1)
        }
        if pre { prePerUser[user] += 1 } else { perUser[user] += 1 }
        let container = c.containers[layout.index(weights: containerWeights)].container
        var axis: ScrollAxis? = nil
        if container.isScrollView {
            axis = container.name == "table" ? .vertical
                : SyntheticLogConfiguration.scrollAxisWeights[layout.index(weights: SyntheticLogConfiguration.scrollAxisWeights.map(\.1))].0
        }
        let screen = SyntheticLogConfiguration.screens[layout.below(SyntheticLogConfiguration.screens.count)]
        let control = SyntheticLogConfiguration.controls[layout.below(SyntheticLogConfiguration.controls.count)]
        let version = SyntheticLogConfiguration.appVersions[layout.below(SyntheticLogConfiguration.appVersions.count)]
        let w = layout.integer(SyntheticLogConfiguration.controlWidths)
        let h = layout.bernoulli(SyntheticLogConfiguration.standardHeightShare) ? 44 : layout.integer(SyntheticLogConfiguration.controlHeights)
        let sw = Int(model.screen.width), sh = Int(model.screen.height)
        let fx = layout.integer(SyntheticLogConfiguration.sideInset...(sw - SyntheticLogConfiguration.sideInset - w))
        let fy = layout.integer(SyntheticLogConfiguration.verticalInset...(sh - SyntheticLogConfiguration.verticalInset - h))
        let frame = Rect(x: Double(fx), y: Double(fy), width: Double(w), height: Double(h))

        let arm: Int
        var behaviors: BehaviorMix
        var fingers = model
        var traits: UserTraits? = nil
        switch c.assignment {
        case .session:
            arm = pre ? 0 : assignment.index(weights: armWeights)
            behaviors = c.arms[arm].behaviors
        case .user:
            arm = pre ? 0 : Self.crosses(user, configuration: c) ? assignment.index(weights: armWeights)
                : Self.userArm(user, seed: c.seed, weights: armWeights)
            var traitStream = SplitMix64(seed: c.seed, index: UInt64(user), stream: Stream.userTraits.rawValue)
            let user = UserTraits.draw(model, using: &traitStream)
            behaviors = c.arms[arm].behaviors.scalingDragOff(by: user.dragOffMultiplier)
            fingers = model.personalised(user)
            traits = user
        }

        // Touch-down: around the centre (σ = a sixth of the size), at least 1 pt inside the frame.
        let down = Point(
            x: Self.hundredths(min(max(frame.midX + finger.normal() * frame.width / 6, frame.x + 1), frame.x + frame.width - 1)),
            y: Self.hundredths(min(max(frame.midY + finger.normal() * frame.height / 6, frame.y + 1), frame.y + frame.height - 1)))
        let behavior = behaviors.draw(scrollContainer: container.isScrollView, using: &finger)
        let interval = 1 / c.sampleRate
        let path = fingers.path(behavior, start: down, frame: frame, axis: axis, sampleInterval: interval, using: &finger)
        let samples = Self.sample(path, start: start, interval: interval, model: fingers, using: &finger)

        let userID = c.user(user)
        let id = userID + (pre ? "-p" + Self.padded(prePerUser[user], width: 4) : "-" + Self.padded(perUser[user], width: 4))
        var anonymous = false
        if c.missingUser > 0 && !pre {
            var anonymity = SplitMix64(seed: c.seed, index: UInt64(index), stream: Stream.anonymity.rawValue)
            anonymous = anonymity.nextUnit() < c.missingUser
        }
        var text: [SessionAttribute: String] = [.screen: screen, .appVersion: version]
        if !anonymous { text[.user] = userID }
        let attributes = SessionAttributes(config: c.arms[arm].config, variant: pre ? nil : c.arms[arm].variant, control: control,
                                           frame: frame, container: container, scrollAxis: axis, text: text)
        let press = RetriedPress(user: user, arm: arm, down: down, frame: frame, container: container, axis: axis,
                                 attributes: attributes, behaviors: behaviors, fingers: fingers, traits: traits, id: id)
        return (SyntheticSession(id: id, attributes: attributes, arm: arm, behavior: behavior, traits: traits, samples: samples), press)
    }

    /// The arm user `user` (from 0) keeps under `seed` with the arms' `weights` (`--assign user`): the
    /// generator's bucketing, from the user's own stream and nothing else.
    public static func userArm(_ user: Int, seed: UInt64, weights: [Double]) -> Int {
        var bucket = SplitMix64(seed: seed, index: UInt64(user), stream: Stream.userAssignment.rawValue)
        return bucket.index(weights: weights)
    }

    /// Whether user `user` (from 0) is one of the `crossArmUsers` share re-bucketed per session,
    /// from the user's own crossing stream.
    public static func crosses(_ user: Int, configuration c: SyntheticLogConfiguration) -> Bool {
        guard c.crossArmUsers > 0 else { return false }
        var draw = SplitMix64(seed: c.seed, index: UInt64(user), stream: Stream.crossing.rawValue)
        return draw.nextUnit() < c.crossArmUsers
    }

    /// Samples `path` at the display rate: `began` at `start`, then one sample per interval from a
    /// random display-clock phase, strictly before the lift, then the terminal sample at the lift.
    /// A resting finger repeats its last position with `stationaryProbability` (phase
    /// `stationary`); otherwise each sample is the path plus jitter.
    static func sample(_ path: FingerPath, start: Int, interval: Double, model: FingerModel,
                       using rng: inout SplitMix64) -> [SyntheticSample] {
        let first = path.waypoints[0].point
        var out: [SyntheticSample] = []
        out.reserveCapacity(Int(path.duration / interval) + 3)
        var last = SyntheticSample(microseconds: start, xHundredths: fixed(first.x), yHundredths: fixed(first.y), phase: .began)
        out.append(last)
        let lift = start + max(1, microseconds(path.duration))
        let phase = rng.nextUnit() * interval
        var k = 0
        while true {
            let dt = phase + Double(k) * interval
            k += 1
            let us = start + microseconds(dt)
            if us <= start { continue }
            if us >= lift { break }
            var s = last
            s.microseconds = us
            if !path.isMoving(at: dt) && rng.bernoulli(model.stationaryProbability) {
                s.phase = .stationary
            } else {
                let p = path.position(at: dt)
                s.xHundredths = fixed(p.x + jitter(model, &rng))
                s.yHundredths = fixed(p.y + jitter(model, &rng))
                s.phase = (s.xHundredths == last.xHundredths && s.yHundredths == last.yHundredths) ? .stationary : .moved
            }
            out.append(s)
            last = s
        }
        let p = path.position(at: path.duration)
        out.append(SyntheticSample(microseconds: lift, xHundredths: fixed(p.x + jitter(model, &rng)),
                                   yHundredths: fixed(p.y + jitter(model, &rng)), phase: path.terminal))
        return out
    }

    static func jitter(_ model: FingerModel, _ rng: inout SplitMix64) -> Double {
        min(max(rng.normal() * model.jitter, -model.jitterLimit), model.jitterLimit)
    }
    static func microseconds(_ seconds: Double) -> Int { Int((seconds * 1_000_000).rounded()) }
    static func fixed(_ points: Double) -> Int { Int((points * 100).rounded()) }
    static func hundredths(_ points: Double) -> Double { (points * 100).rounded() / 100 }

    /// `n` in decimal, zero-padded to `width` digits.
    static func padded(_ n: Int, width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// The synthetic log: a configuration's sessions, their records merged in time order.
public struct SyntheticLog: Sendable {
    public let configuration: SyntheticLogConfiguration
    private let sessions: SyntheticSessionGenerator

    /// Throws `SyntheticLogError` when the configuration is invalid.
    public init(_ configuration: SyntheticLogConfiguration) throws {
        sessions = try SyntheticSessionGenerator(configuration)
        self.configuration = configuration
    }

    /// Calls `body(session, i)` for every record, `session.samples[i]` being the record's sample,
    /// in the merged log's order: by time, ties broken by session (in touch-down order), then by
    /// sample. Sessions overlap in time, so their records interleave. Memory is bounded by the
    /// sessions in flight, not by the log's size.
    public func forEachRecord(_ body: (SyntheticSession, Int) throws -> Void) rethrows {
        var generator = sessions
        var slots: [SyntheticSession] = []
        var cursors: [Int] = []
        var free: [Int] = []
        var heap = SyntheticMergeHeap()
        var serial = 0
        while let session = generator.next() {
            let start = session.samples[0].microseconds
            while let top = heap.peek, top.microseconds <= start {
                try emitTop(&heap, &slots, &cursors, &free, body)
            }
            let slot: Int
            if let f = free.popLast() { slot = f; slots[f] = session; cursors[f] = 0 }
            else { slot = slots.count; slots.append(session); cursors.append(0) }
            heap.push(SyntheticMergeHeap.Entry(microseconds: start, serial: serial, slot: slot))
            serial += 1
        }
        while heap.peek != nil { try emitTop(&heap, &slots, &cursors, &free, body) }
    }

    private func emitTop(_ heap: inout SyntheticMergeHeap, _ slots: inout [SyntheticSession], _ cursors: inout [Int],
                         _ free: inout [Int], _ body: (SyntheticSession, Int) throws -> Void) rethrows {
        var top = heap.pop()
        let slot = top.slot
        let i = cursors[slot]
        try body(slots[slot], i)
        cursors[slot] = i + 1
        if i + 1 < slots[slot].samples.count {
            top.microseconds = slots[slot].samples[i + 1].microseconds
            heap.push(top)
        } else {
            slots[slot].samples = []
            free.append(slot)
        }
    }
}

/// A binary min-heap of the sessions in flight, keyed by (next record's time, session serial).
struct SyntheticMergeHeap {
    struct Entry {
        var microseconds: Int
        var serial: Int
        var slot: Int
        static func < (a: Entry, b: Entry) -> Bool {
            a.microseconds != b.microseconds ? a.microseconds < b.microseconds : a.serial < b.serial
        }
    }
    private var items: [Entry] = []
    var peek: Entry? { items.first }

    mutating func push(_ e: Entry) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if !(items[i] < items[parent]) { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Entry {
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l] < items[m] { m = l }
                if r < items.count && items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return top
    }
}
