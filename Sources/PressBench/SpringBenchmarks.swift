// Benchmarks of the animation core: spring and timing-curve evaluation, the timeline, the metrics.
import PressCore

/// The animation core's benchmarks. Each body varies its input per call (t from a 1024-step
/// ramp) and sums the results so the work cannot be hoisted or removed.
var springBenchmarks: [Benchmark] { [
    Benchmark(name: "spring", what: "Spring.progress(at:), under-damped, one call") { n in
        let s = try! Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0.8)
        var sum = 0.0
        for i in 0..<n { sum += s.progress(at: Double(i & 1023) * 0.001) }
        return sum
    },
    Benchmark(name: "spring-critical", what: "Spring.progress(at:), critically damped, one call") { n in
        let s = try! Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 3)
        var sum = 0.0
        for i in 0..<n { sum += s.progress(at: Double(i & 1023) * 0.001) }
        return sum
    },
    Benchmark(name: "spring-uikit", what: "Spring(withDuration:usingSpringWithDamping:…), 12 Newton steps") { n in
        var sum = 0.0
        for i in 0..<n {
            sum += try! Spring(withDuration: 0.3 + Double(i & 1023) * 0.0001, usingSpringWithDamping: 0.5,
                               initialSpringVelocity: 3).stiffness
        }
        return sum
    },
    Benchmark(name: "bezier", what: "easeInEaseOut value(at:), one solve") { n in
        let b = try! TimingCurve.easeInEaseOut.unitBezier()
        var sum = 0.0
        for i in 0..<n { sum += b.value(at: Double(i & 1023) / 1023) }
        return sum
    },
    Benchmark(name: "timeline-scale", what: "ScaleTimeline.scale(at:), spring-press tap, one frame") { n in
        let tl = try! ScaleTimeline(animation: PressConfiguration.springPress.animation,
                                    events: [TimedScaleEvent(time: 0, event: .press), TimedScaleEvent(time: 0.1, event: .release)])
        var sum = 0.0
        for i in 0..<n { sum += tl.scale(at: Double(i & 1023) * 0.0005) }
        return sum
    },
    Benchmark(name: "visual-metrics", what: "timeline + VisualMetrics of a spring-press tap (60 Hz)") { n in
        var sum = 0.0
        for i in 0..<n {
            let lift = 0.05 + Double(i & 1023) * 0.0001
            let tl = try! ScaleTimeline(animation: PressConfiguration.springPress.animation,
                                        events: [TimedScaleEvent(time: 0, event: .press), TimedScaleEvent(time: lift, event: .release)])
            let m = try! VisualMetrics(timeline: tl, touchDown: 0, width: 44, height: 44)
            sum += (m.feedbackLatency ?? 0) + m.releaseJump + m.pressDepth
        }
        return sum
    },
] }
