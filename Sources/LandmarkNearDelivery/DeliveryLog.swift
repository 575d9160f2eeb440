@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// The delivery thread's lines on stderr: retries, failures and retired tokens (and, with
/// `verbose`, every delivery). Each line is one `write(2)`, so it never interleaves with the
/// engine's lines. Tokens appear as their last 8 hex digits, webhook URLs without credentials
/// or query, device names quoted and made safe for a terminal.
///
///     landmark-near watch: delivery: apns token …9f8e7d6c, device "d1", landmark 1002: 410 Unregistered, token retired
struct DeliveryLog: Sendable {
    var prefix: String
    var verbose: Bool
    var descriptor: Int32 = 2

    func line(_ job: DeliveryJob, _ text: String) {
        let device = TerminalText.safe(JSONWriter.quoted(job.notification.device))
        write(
            "\(prefix): delivery: \(job.targetLabel), device \(device), landmark \(job.notification.landmarkID): \(TerminalText.safe(text))"
        )
    }

    func write(_ text: String) {
        var bytes = Array((TerminalText.safeLines(text) + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}
