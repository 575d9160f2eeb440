import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The TZif reader and the footer's POSIX rule, against the files of /usr/share/zoneinfo, with
/// `zdump` (the C library's reader) and Foundation's `TimeZone` (ICU's data) as oracles.
@Suite(.suiteTimeLimit) struct ZoneRulesTests {
    /// The 2026 changes of SPEC 16's two zones: the second before and the second of each.
    @Test(arguments: [
        ("Europe/Berlin", "2026-03-29T01:00:00Z", 3600, 7200),
        ("Europe/Berlin", "2026-10-25T01:00:00Z", 7200, 3600),
        ("America/New_York", "2026-03-08T07:00:00Z", -18000, -14400),
        ("America/New_York", "2026-11-01T06:00:00Z", -14400, -18000),
    ])
    func offsetsAroundThe2026Changes(zone: String, change: String, before: Int32, after: Int32) throws {
        var zones = TimeZoneDatabase()
        let rules = try zones.rules(named: zone)
        let instant = try #require(Timestamp(rfc3339: change)).seconds
        #expect(rules.offset(at: instant - 1) == before)
        #expect(rules.offset(at: instant) == after)
        // 2026 is past the files' last transition (2037 in "fat" files, 2007 or so in "slim"
        // ones): the footer's rule answers it the same either way.
        #expect(rules.footer?.offset(at: instant - 1) == before)
        #expect(rules.footer?.offset(at: instant) == after)
    }

    /// Every zone and link of the database, at the second before and the second of each of its
    /// changes from 1990 to 2045, as `zdump -v` (the C library's reader of the same files) tells
    /// them: past the files' last transitions too, where the footer's rule answers.
    @Test func everyZoneAgreesWithZdump() async throws {
        let index = try String(contentsOfFile: "/usr/share/zoneinfo/tzdata.zi", encoding: .utf8)
        let names = index.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            if fields.first == "Z", fields.count > 1 { return String(fields[1]) }
            if fields.first == "L", fields.count > 2 { return String(fields[2]) }
            return nil
        }
        #expect(names.count > 500)
        let dump = try await runProcess("/usr/bin/zdump", ["-v", "-c", "1990,2045"] + names, timeout: 120)
        #expect(dump.status == 0, "\(dump.stderr)")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var zones = TimeZoneDatabase()
        var checked = 0
        var disagreements: [String] = []
        // "Europe/Berlin  Sun Mar 29 01:00:00 2026 UT = Sun Mar 29 03:00:00 2026 CEST isdst=1 gmtoff=7200"
        for line in dump.stdout.split(separator: "\n") where !line.hasSuffix("NULL") {
            let fields = line.split(separator: " ")
            guard fields.count >= 7, fields[6] == "UT", let offset = fields.last.flatMap({ Int32($0.dropFirst(7)) }),
                let month = months.firstIndex(of: String(fields[2])), let day = Int64(fields[3]), let year = Int64(fields[5])
            else {
                Issue.record("unexpected zdump line: \(line)")
                continue
            }
            let clock = fields[4].split(separator: ":").compactMap { Int64($0) }
            let seconds =
                Timestamp.daysSinceEpoch(year: year, month: Int64(month + 1), day: day) * 86_400 + clock[0] * 3600 + clock[1] * 60
                + clock[2]
            let rules = try zones.rules(named: String(fields[0]))
            checked += 1
            if rules.offset(at: seconds) != offset { disagreements.append("\(line): \(rules.offset(at: seconds))") }
        }
        #expect(checked > 10_000)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// Foundation's `TimeZone` (ICU's own copy of the IANA data, not these files) agrees on
    /// zones whose rules have long been settled. Not on every zone: ICU keeps some legacy names
    /// apart (measured: its WET follows Lisbon, +1 in 1992, where tzdata's WET stayed at 0).
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "Europe/London", "America/Sao_Paulo"])
    func settledZonesAgreeWithFoundation(name: String) throws {
        var zones = TimeZoneDatabase()
        let rules = try zones.rules(named: name)
        let foundation = try #require(TimeZone(identifier: name))
        // Every 3 days 53 minutes from 1990 to 2045: every season, time of day and weekday.
        for instant in stride(from: Int64(631_152_000), to: 2_366_841_600, by: 3 * 86_400 + 53 * 60) {
            let expected = foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
            guard Int(rules.offset(at: instant)) == expected else {
                Issue.record("\(name) at \(Timestamp(seconds: instant).rfc3339): \(rules.offset(at: instant)) vs \(expected)")
                return
            }
        }
    }

    @Test(arguments: [
        // Berlin: last Sunday of March 02:00 standard time, last Sunday of October 03:00 summer time.
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2026-03-29T00:59:59Z", 3600),
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2026-03-29T01:00:00Z", 7200),
        ("CET-1CEST,M3.5.0,M10.5.0/3", "2026-10-25T01:00:00Z", 3600),
        // The southern hemisphere: summer time across the new year.
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-01-15T00:00:00Z", 39600),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-07-15T00:00:00Z", 36000),
        // Half-hour offsets, angle-bracket names.
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "2026-01-15T00:00:00Z", 39600),
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "2026-07-15T00:00:00Z", 37800),
        // Dublin: winter is the "daylight" time, an hour back (negative DST).
        ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-07-01T12:00:00Z", 3600),
        ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-12-01T12:00:00Z", 0),
        // Daylight saving all year (RFC 8536's example): the year's start wins over its end.
        ("EST5EDT,0/0,J365/25", "2026-01-01T04:30:00Z", -14400),
        ("EST5EDT,0/0,J365/25", "2026-07-01T12:00:00Z", -14400),
        // A fixed offset; Jn and n days; times past 24 h (RFC 8536's extension).
        ("<-03>3", "2026-07-01T12:00:00Z", -10800),
        ("XST3XDT,J60/0,300/-1", "2026-03-01T03:00:00Z", -7200),
        ("XST3XDT,J60/0,300/-1", "2026-02-28T23:00:00Z", -10800),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "2026-06-01T00:00:00Z", -3600),
    ])
    func posixRules(rule: String, at time: String, offset: Int32) throws {
        let parsed = try #require(PosixTimeZoneRule(Array(rule.utf8)))
        #expect(parsed.offset(at: try #require(Timestamp(rfc3339: time)).seconds) == offset)
    }

    @Test(arguments: [
        "", "C-1", "CET", "CET-1CEST", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,J0,J100", "CET-1 ", "<AB>1",
    ])
    func notPosixRules(rule: String) {
        #expect(PosixTimeZoneRule(Array(rule.utf8)) == nil)
    }

    @Test(arguments: [
        ("Mars/Base", nil as String?), ("../../etc/passwd", nil), ("/etc/localtime", nil), ("America", nil), ("", nil),
        ("europe/berlin", nil), ("Europe/Berlin/", nil), (".hidden", nil), ("right/Europe/Berlin", "counts leap seconds"),
        ("zone.tab", "is not a TZif file"),
    ])
    func refusedNames(name: String, detail: String?) {
        var zones = TimeZoneDatabase()
        #expect {
            _ = try zones.rules(named: name)
        } throws: { error in
            guard let error = error as? TimeZoneError else { return false }
            return error.description.hasPrefix("\(JSONWriter.quoted(name)) is not a time zone in /usr/share/zoneinfo")
                && (detail.map { error.detail?.contains($0) == true } ?? (error.detail == nil))
        }
    }

    @Test func truncatedAndVersionOneFilesAreRefused() throws {
        let berlin = try InputFile.read(path: "/usr/share/zoneinfo/Europe/Berlin")
        #expect(throws: ZoneFileProblem.self) { _ = try ZoneRules(tzif: Array(berlin.prefix(200))) }
        var versionOne = berlin
        versionOne[4] = 0
        #expect(throws: ZoneFileProblem("is a version 1 TZif file (32-bit times only); version 2 or later is needed")) {
            _ = try ZoneRules(tzif: versionOne)
        }
        #expect(throws: ZoneFileProblem.self) { _ = try ZoneRules(tzif: Array("TZif2".utf8)) }
        // Every prefix is refused, or (a whole file) read: never a crash.
        for length in stride(from: 0, to: berlin.count, by: 7) { _ = try? ZoneRules(tzif: Array(berlin.prefix(length))) }
    }

    @Test func aZoneIsReadOnceAndShared() throws {
        var zones = TimeZoneDatabase()
        let first = try zones.rules(named: "Europe/Berlin")
        let second = try zones.rules(named: "Europe/Berlin")
        #expect(first === second)
        // Read again by another database: another object, equal rules.
        var other = TimeZoneDatabase()
        let third = try other.rules(named: "Europe/Berlin")
        #expect(third !== first && third == first && third.hashValue == first.hashValue)
        #expect(try other.rules(named: "Europe/Paris") != first)
    }
}
