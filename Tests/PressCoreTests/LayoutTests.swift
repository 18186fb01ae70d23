// Hit-testing a layout: top-most (last listed) control wins, frame edges count as inside.
import Testing
import PressCore

@Suite struct LayoutTests {
    // Two overlapping controls: "card" (0, 0, 200, 100) under "ok" (150, 50, 44, 44), on top.
    let layout = Layout(controls: [
        LayoutControl(id: "card", frame: Rect(x: 0, y: 0, width: 200, height: 100)),
        LayoutControl(id: "ok", frame: Rect(x: 150, y: 50, width: 44, height: 44), container: .table,
                      scrollAxis: .horizontal, config: "spring-press"),
    ])

    @Test func topMostControlWins() {
        // (160, 60) lies in both frames; "ok" is listed last.
        #expect(layout.hitTest(Point(x: 160, y: 60))?.id == "ok")
        // (10, 10) lies only in "card".
        #expect(layout.hitTest(Point(x: 10, y: 10))?.id == "card")
    }

    @Test func edgesAreInside() {
        // ok spans x 150…194, y 50…94; card spans x 0…200, y 0…100.
        #expect(layout.hitTest(Point(x: 194, y: 94))?.id == "ok")      // bottom-right corner of ok
        #expect(layout.hitTest(Point(x: 150, y: 50))?.id == "ok")      // top-left corner of ok
        #expect(layout.hitTest(Point(x: 194.001, y: 94))?.id == "card") // just right of ok, still in card
        #expect(layout.hitTest(Point(x: 200, y: 100))?.id == "card")   // bottom-right corner of card
        #expect(layout.hitTest(Point(x: 0, y: 0))?.id == "card")
    }

    @Test func missGivesNil() {
        #expect(layout.hitTest(Point(x: 200.001, y: 50)) == nil)
        #expect(layout.hitTest(Point(x: -0.001, y: 0)) == nil)
        #expect(Layout().hitTest(Point(x: 0, y: 0)) == nil)
    }
}
