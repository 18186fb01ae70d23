// "What if the scroll view were set up differently?": UIScrollView parameters replacing those of
// the container a session was recorded in (reference §2.1), for `pressdb sweep`.

/// Some of a scroll view's parameters, each replacing the recorded one when given. A session
/// recorded outside a scroll view (`Container.none`) keeps its container: there is no scroll
/// view to set up, and its touch was delivered at touch-down.
///
///     let noDelay = ContainerOverride(delaysContentTouches: false)
///     noDelay.apply(to: .table)   // delays off, still cancels on scroll: `scroll-immediate`
///     noDelay.apply(to: .none)    // .none
public struct ContainerOverride: Hashable, Sendable {
    /// `UIScrollView.delaysContentTouches`.
    public var delaysContentTouches: Bool?
    /// Whether a scroll that starts while the control tracks cancels it (`touchesShouldCancel(in:)`).
    public var cancelsControlTouches: Bool?
    /// How long a delaying scroll view holds a touch back, seconds (≥ 0).
    public var touchDelay: Double?
    /// Movement along a scrollable axis at which the pan begins, points (≥ 0).
    public var hysteresis: Double?

    public init(delaysContentTouches: Bool? = nil, cancelsControlTouches: Bool? = nil,
                touchDelay: Double? = nil, hysteresis: Double? = nil) {
        self.delaysContentTouches = delaysContentTouches
        self.cancelsControlTouches = cancelsControlTouches
        self.touchDelay = touchDelay
        self.hysteresis = hysteresis
    }

    /// True when it replaces nothing.
    public var isEmpty: Bool {
        delaysContentTouches == nil && cancelsControlTouches == nil && touchDelay == nil && hysteresis == nil
    }

    /// `container` with the given parameters replaced; `container` itself when it is not a scroll
    /// view or nothing is given. The result carries the name of the named container it equals
    /// (`scroll`, `table`, `scroll-immediate`), else no name.
    public func apply(to container: Container) -> Container {
        guard container.isScrollView, !isEmpty else { return container }
        let c = Container(delaysContentTouches: delaysContentTouches ?? container.delaysContentTouches,
                          cancelsControlTouches: cancelsControlTouches ?? container.cancelsControlTouches,
                          touchDelay: touchDelay ?? container.touchDelay,
                          hysteresis: hysteresis ?? container.hysteresis)
        return c.withKnownName
    }
}

extension Container {
    /// The named scroll view (`scroll`, `table`, `scroll-immediate`) with exactly these
    /// parameters, name included; else this container unchanged.
    public var withKnownName: Container {
        guard isScrollView else { return self }
        return Container.named.first {
            $0.isScrollView && $0.delaysContentTouches == delaysContentTouches
                && $0.cancelsControlTouches == cancelsControlTouches
                && $0.touchDelay == touchDelay && $0.hysteresis == hysteresis
        } ?? self
    }
}
