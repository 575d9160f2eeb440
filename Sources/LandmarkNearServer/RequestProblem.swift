@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders

/// A request the server refuses, with the status and the reason it answers.
package struct RequestProblem: Error, Sendable, Equatable {
    package var status: Int
    package var reason: String

    package init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    package var response: HTTPResponse { .problem(status, reason) }
}

/// How deep a phone's JSON body may nest (OwnTracks and Traccar Client send two levels).
let requestJSONDepth = 32

/// The record a flat JSON object describes, by the NDJSON rules of docs/reference/fixes.md (`lat`, `lon`,
/// `tst`/`timestamp`, `acc`, `tid`/`id`/`device`), as line `line` of `source`.
func record(of object: JSONObject, line: Int, source: String) -> FixRecord? {
    switch NDJSONLineDecoder.outcome(of: object, devices: DeviceNames()) {
    case .fix(let fix), .fixWithZonelessTime(let fix, _): return .fix(fix, line: line)
    case .skip: return nil
    case .invalid(let reason), .unusable(let reason): return .invalid(FixReadIssue(source: source, line: line, reason: reason))
    }
}
