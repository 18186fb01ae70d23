// Ctrl-C (SIGINT) as a request to stop cleanly: the handler only sets a flag; long-running work
// checks it at batch boundaries, commits what is whole and exits with status 130.
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Set by the SIGINT handler. An atomic is lock-free, so storing to it is async-signal-safe.
private let interruptRequested = Atomic<Bool>(false)

enum Interrupt {
    /// The exit status after a stop on SIGINT: 128 + the signal number (2), as shells report a
    /// process killed by Ctrl-C.
    static let exitStatus: Int32 = 128 + SIGINT

    /// Installs the handler: the first Ctrl-C sets the flag (the handler then resets itself, so a
    /// second Ctrl-C ends the process at once, the default action). `SA_RESTART`: a read that
    /// the signal interrupts carries on rather than failing.
    static func install() {
        _ = interruptRequested.load(ordering: .relaxed) // initialise the global outside the handler
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND)) | SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        // A parent that started pressdb from a thread blocking signals (a Dispatch worker does)
        // passes that mask on; SIGINT would then never arrive. Unblock it.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Restores the default action (the process ends on Ctrl-C).
    static func uninstall() {
        signal(SIGINT, SIG_DFL)
    }

    /// True once Ctrl-C was pressed after `install()`.
    @Sendable static func requested() -> Bool { interruptRequested.load(ordering: .relaxed) }

    /// The line printed after a clean stop.
    static func message(sessionsCommitted n: Int) -> String {
        "interrupted: \(n) session\(n == 1 ? "" : "s") committed; re-run the same command to finish"
    }
}
