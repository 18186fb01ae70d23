// Ctrl-C (SIGINT) and SIGTERM (`kill`, a service manager stopping pressdb) as a request to stop
// cleanly: the handler only records the signal; long-running work checks it at batch boundaries,
// commits what is whole and exits with 128 + the signal (130, or 143 for SIGTERM).
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The signal that asked to stop (0: none), set by the handler. An atomic is lock-free, so storing
/// to it is async-signal-safe.
private let interruptSignal = Atomic<Int32>(0)

enum Interrupt {
    /// The signals that ask for a clean stop.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// The exit status after a clean stop: 128 + the signal's number, as shells report a process
    /// the signal ended (130 for Ctrl-C, 143 for SIGTERM).
    static var exitStatus: Int32 { 128 + (interruptSignal.load(ordering: .relaxed) == SIGTERM ? SIGTERM : SIGINT) }

    /// Installs the handler: the first Ctrl-C sets the flag (the handler then resets itself, so a
    /// second Ctrl-C ends the process at once, the default action). `SA_RESTART`: a read that
    /// the signal interrupts carries on rather than failing.
    static func install() {
        _ = interruptSignal.load(ordering: .relaxed) // initialise the global outside the handler
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            // The first signal is the one reported; a second ends the process (SA_RESETHAND).
            _ = interruptSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
        }
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND)) | SA_RESTART
        sigemptyset(&action.sa_mask)
        for s in signals { sigaction(s, &action, nil) }
        // A parent that started pressdb from a thread blocking signals (a Dispatch worker does)
        // passes that mask on; the signals would then never arrive. Unblock them.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in signals { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Restores the default actions (the process ends on Ctrl-C or SIGTERM).
    static func uninstall() {
        for s in signals { signal(s, SIG_DFL) }
    }

    /// True once Ctrl-C was pressed, or SIGTERM received, after `install()`.
    @Sendable static func requested() -> Bool { interruptSignal.load(ordering: .relaxed) != 0 }

    /// The line printed after a clean stop.
    static func message(sessionsCommitted n: Int) -> String {
        "interrupted: \(n) session\(n == 1 ? "" : "s") committed; re-run the same command to finish"
    }
}
