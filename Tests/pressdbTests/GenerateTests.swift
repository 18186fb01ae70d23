import Foundation
import Testing

@Suite struct GenerateCommandTests {
    @Test func hundredSessionsParseLineByLineAsJSON() throws {
        let r = try Binary.run(["generate", "--sessions", "100", "--seed", "7"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count > 500)
        var began = Set<String>()
        for line in lines {
            let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let session = try #require(o["session"] as? String)
            let phase = try #require(o["phase"] as? String)
            #expect(["began", "moved", "stationary", "ended", "cancelled"].contains(phase))
            for k in ["t", "x", "y"] { #expect(o[k] is NSNumber) }
            if phase == "began" {
                began.insert(session)
                #expect((o["app_version"] as? String)?.hasSuffix("+synthetic") == true)
                #expect(["A", "B"].contains(o["variant"] as? String ?? ""))
                #expect((o["frame"] as? [Any])?.count == 4)
            } else {
                #expect(o["config"] == nil)
            }
        }
        #expect(began.count == 100)
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let a = try Binary.run(["generate", "-n", "50", "--seed", "7", "--format", "csv"])
        let b = try Binary.run(["generate", "-n", "50", "--seed", "7", "--format", "csv"])
        let c = try Binary.run(["generate", "-n", "50", "--seed", "8", "--format", "csv"])
        #expect(a.status == 0 && a.stdout == b.stdout && a.stdout != c.stdout)
        #expect(a.stdout.hasPrefix("session,t,phase,x,y,config,variant,control,frame_x,frame_y,frame_w,frame_h,container,scroll_axis,user,screen,app_version\n"))
    }

    @Test func optionsShapeTheLog() throws {
        let r = try Binary.run(["generate", "-n", "300", "--variants", "X=spring-press,Y=spring-press,Z=longpress-safe-area",
                                "--split", "1/1/2", "--containers", "table", "--rate", "120", "--effect", "Z:flick=+0.1"])
        #expect(r.status == 0)
        let began = r.stdout.split(separator: "\n").filter { $0.contains("\"began\"") }
        #expect(began.count == 300)
        #expect(began.allSatisfy { $0.contains("\"container\":\"table\",\"scroll_axis\":\"vertical\"") })
        #expect(began.contains { $0.contains("\"variant\":\"Z\"") } && began.contains { $0.contains("\"variant\":\"X\"") })
    }

    /// Shares too large to add up (1e308 + 1e308 overflows) are the same 50/50 as 1/1: both arms
    /// get users (before, every session went to B). The default seed's 10 users in two equal arms:
    /// that one arm gets none has probability 2 × 2^-10, and the seed is fixed.
    @Test func splitSharesTooLargeToAddStillSplit() throws {
        let r = try Binary.run(["generate", "-n", "200", "--split", "1e308/1e308"])
        #expect(r.status == 0, "\(r.stderr)")
        let began = r.stdout.split(separator: "\n").filter { $0.contains("\"began\"") }
        #expect(began.contains { $0.contains("\"variant\":\"A\"") } && began.contains { $0.contains("\"variant\":\"B\"") })
    }

    @Test func badOptionsAreUsageErrors() throws {
        for args in [["--split", "50/30/20"], ["--containers", "drawer"], ["--effect", "C:drag_out=0.1"],
                     ["--effect", "A:tap=0.1"], ["--effect", "A:cancel=-0.5"], ["--variants", "A"],
                     ["--variants", "A=x,A=y"], ["--seed", "-1"], ["--rate", "0"], ["--format", "xml"],
                     ["--sessions", "-3"]] {
            let r = try Binary.run(["generate"] + args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("pressdb generate:"), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func helpDocumentsTheModel() throws {
        let r = try Binary.run(["generate", "--help"])
        #expect(r.status == 0)
        for text in ["--sessions N", "--effect", "+synthetic", "log-normal", "drag_out", "flick"] {
            #expect(r.stdout.contains(text), "\(text)")
        }
    }
}
