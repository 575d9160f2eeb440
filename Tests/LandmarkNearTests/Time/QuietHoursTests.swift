import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearReaders

/// `QuietHours.contains` in local wall time, across the 2026 daylight-saving changes of
/// Europe/Berlin (29 March and 25 October, 01:00 UTC) and America/New_York (8 March 07:00 UTC,
/// 1 November 06:00 UTC).
@Suite(.suiteTimeLimit) struct QuietHoursTests {
    @Test(arguments: [
        // Berlin, 22:00–07:00 (wraps midnight). Spring: the morning end moves an hour earlier in UTC.
        ("Europe/Berlin", "22:00", "07:00", "2026-03-28T05:59:59Z", true),  // 06:59:59 CET
        ("Europe/Berlin", "22:00", "07:00", "2026-03-28T06:00:00Z", false),  // 07:00 CET
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T00:59:59Z", true),  // 01:59:59 CET, the last second of winter
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T01:00:00Z", true),  // 03:00 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T04:59:59Z", true),  // 06:59:59 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T05:00:00Z", false),  // 07:00 CEST (06:00 in winter time)
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T19:59:59Z", false),  // 21:59:59 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-03-29T20:00:00Z", true),  // 22:00 CEST
        // Autumn: the end moves an hour later in UTC; the repeated hour is inside twice.
        ("Europe/Berlin", "22:00", "07:00", "2026-10-24T04:59:59Z", true),  // 06:59:59 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-10-24T05:00:00Z", false),  // 07:00 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T00:59:59Z", true),  // 02:59:59 CEST
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T01:00:00Z", true),  // 02:00 CET, again
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T05:59:59Z", true),  // 06:59:59 CET
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T06:00:00Z", false),  // 07:00 CET
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T20:59:59Z", false),  // 21:59:59 CET
        ("Europe/Berlin", "22:00", "07:00", "2026-10-25T21:00:00Z", true),  // 22:00 CET
        // A window in the hour that 29 March skips holds no instant that day, but does the days around it.
        ("Europe/Berlin", "02:00", "03:00", "2026-03-28T01:30:00Z", true),  // 02:30 CET
        ("Europe/Berlin", "02:00", "03:00", "2026-03-29T00:59:59Z", false),  // 01:59:59 CET
        ("Europe/Berlin", "02:00", "03:00", "2026-03-29T01:00:00Z", false),  // 03:00 CEST: 02:xx never happened
        ("Europe/Berlin", "02:00", "03:00", "2026-03-30T00:30:00Z", true),  // 02:30 CEST
        // A window ending in the skipped hour ends when the clock jumps past it.
        ("Europe/Berlin", "22:00", "02:30", "2026-03-29T00:59:59Z", true),  // 01:59:59 CET
        ("Europe/Berlin", "22:00", "02:30", "2026-03-29T01:00:00Z", false),  // 03:00 CEST
        // A window in the hour that 25 October repeats holds both of its occurrences.
        ("Europe/Berlin", "02:00", "02:30", "2026-10-25T00:15:00Z", true),  // 02:15 CEST
        ("Europe/Berlin", "02:00", "02:30", "2026-10-25T00:45:00Z", false),  // 02:45 CEST
        ("Europe/Berlin", "02:00", "02:30", "2026-10-25T01:15:00Z", true),  // 02:15 CET
        // New York, 22:00–07:00.
        ("America/New_York", "22:00", "07:00", "2026-03-07T11:59:59Z", true),  // 06:59:59 EST
        ("America/New_York", "22:00", "07:00", "2026-03-07T12:00:00Z", false),  // 07:00 EST
        ("America/New_York", "22:00", "07:00", "2026-03-08T06:59:59Z", true),  // 01:59:59 EST
        ("America/New_York", "22:00", "07:00", "2026-03-08T07:00:00Z", true),  // 03:00 EDT
        ("America/New_York", "22:00", "07:00", "2026-03-08T10:59:59Z", true),  // 06:59:59 EDT
        ("America/New_York", "22:00", "07:00", "2026-03-08T11:00:00Z", false),  // 07:00 EDT (06:00 in EST)
        ("America/New_York", "22:00", "07:00", "2026-10-31T10:59:59Z", true),  // 06:59:59 EDT
        ("America/New_York", "22:00", "07:00", "2026-10-31T11:00:00Z", false),  // 07:00 EDT
        ("America/New_York", "22:00", "07:00", "2026-11-01T01:59:59Z", false),  // 21:59:59 EDT on 31 October
        ("America/New_York", "22:00", "07:00", "2026-11-01T02:00:00Z", true),  // 22:00 EDT
        ("America/New_York", "22:00", "07:00", "2026-11-01T05:59:59Z", true),  // 01:59:59 EDT
        ("America/New_York", "22:00", "07:00", "2026-11-01T06:00:00Z", true),  // 01:00 EST, again
        ("America/New_York", "22:00", "07:00", "2026-11-01T11:59:59Z", true),  // 06:59:59 EST
        ("America/New_York", "22:00", "07:00", "2026-11-01T12:00:00Z", false),  // 07:00 EST
        // A window within one day (13:00–14:00) on either side of the changes.
        ("America/New_York", "13:00", "14:00", "2026-03-07T18:00:00Z", true),  // 13:00 EST
        ("America/New_York", "13:00", "14:00", "2026-03-08T18:00:00Z", false),  // 14:00 EDT
        ("America/New_York", "13:00", "14:00", "2026-03-08T17:00:00Z", true),  // 13:00 EDT
        ("America/New_York", "13:00", "14:00", "2026-03-08T16:59:59Z", false),  // 12:59:59 EDT
        ("America/New_York", "13:00", "14:00", "2026-11-01T18:59:59Z", true),  // 13:59:59 EST
        ("America/New_York", "13:00", "14:00", "2026-11-01T19:00:00Z", false),  // 14:00 EST
        // New York's skipped hour.
        ("America/New_York", "02:00", "03:00", "2026-03-08T06:59:59Z", false),  // 01:59:59 EST
        ("America/New_York", "02:00", "03:00", "2026-03-08T07:00:00Z", false),  // 03:00 EDT
        ("America/New_York", "02:00", "03:00", "2026-03-09T06:30:00Z", true),  // 02:30 EDT
    ])
    func window(zone: String, from: String, to: String, time: String, inside: Bool) throws {
        let quiet = try QuietHours(from: from, to: to, timeZone: zone)
        #expect(quiet.contains(try #require(Timestamp(rfc3339: time))) == inside)
    }

    @Test func localTimeAndDescription() throws {
        let night = try QuietHours(from: "22:00", to: "07:00", timeZone: "Europe/Berlin")
        #expect(night.from == 1320 && night.to == 420)
        #expect(night.description == "22:00–07:00 Europe/Berlin")
        #expect(night.localMinuteOfDay(utcSeconds: try #require(Timestamp(rfc3339: "2026-12-31T22:14:00Z")).seconds) == 23 * 60 + 14)
        #expect(night.localMinuteOfDay(utcSeconds: try #require(Timestamp(rfc3339: "1969-12-31T23:59:00Z")).seconds) == 59)
        #expect(QuietHours.clock(0) == "00:00" && QuietHours.clock(1439) == "23:59")
    }

    @Test(arguments: [
        ("25:00", "07:00", "Europe/Berlin", #"quietHours.from "25:00" is not HH:MM"#),
        ("22:00", "7:00", "Europe/Berlin", #"quietHours.to "7:00" is not HH:MM"#),
        ("22:60", "07:00", "Europe/Berlin", #"quietHours.from "22:60" is not HH:MM"#),
        ("22:00", "24:00", "Europe/Berlin", #"quietHours.to "24:00" is not HH:MM"#),
        (" 22:00", "07:00", "Europe/Berlin", "is not HH:MM"),
        ("22:00", "22:00", "Europe/Berlin", #"quietHours.to "22:00" equals from: an empty window"#),
        ("22:00", "07:00", "Mars/Base", #"quietHours.timeZone "Mars/Base" is not a time zone in /usr/share/zoneinfo"#),
        ("22:00", "07:00", "GMT+1", #"quietHours.timeZone "GMT+1" is not a time zone"#),
    ])
    func refused(from: String, to: String, zone: String, message: String) {
        #expect {
            _ = try QuietHours(from: from, to: to, timeZone: zone)
        } throws: { error in
            (error as? QuietHoursError)?.description.contains(message) == true
        }
    }

    @Test func profilesReadQuietHoursAndShareTheirZones() throws {
        let profiles = try ProfilesFile.parse(
            Array(
                #"""
                {"alice": {"quietHours": {"from": "22:00", "to": "07:00", "timeZone": "Europe/Berlin"}},
                 "bob": {"quietHours": {"from": "13:00", "to": "14:00", "timeZone": "Europe/Berlin"}},
                 "carol": {"quietHours": null}, "dave": {}}
                """#.utf8), source: "p.json")
        #expect(profiles["alice"]?.quietHours?.description == "22:00–07:00 Europe/Berlin")
        #expect(profiles["bob"]?.quietHours?.from == 13 * 60)
        #expect(profiles["carol"]?.quietHours == nil && profiles["dave"]?.quietHours == nil)
        #expect(profiles.warnings.isEmpty)
        #expect(try #require(profiles["alice"]?.quietHours?.rules) === profiles["bob"]?.quietHours?.rules)
    }

    @Test func theMemberIsWrittenAsItIsRead() throws {
        var zones = TimeZoneDatabase()
        let text = #"{"from":"22:05","to":"07:00","timeZone":"America/New_York"}"#
        let read = try #require(try QuietHoursField.parse(JSONParser.parse(text), zones: &zones))
        #expect(QuietHoursField.json(read) == text)
    }

    @Test(arguments: [
        (
            #"{"alice": {"quietHours": {"from": "22:00", "to": "07:00", "timeZone": "Mars/Base"}}}"#,
            #"p.json: device "alice": quietHours.timeZone "Mars/Base" is not a time zone in /usr/share/zoneinfo"#
        ),
        (
            #"{"bob": {"quietHours": {"from": "25:00", "to": "07:00", "timeZone": "Europe/Berlin"}}}"#,
            #"p.json: device "bob": quietHours.from "25:00" is not HH:MM"#
        ),
        (#"{"bob": {"quietHours": {"from": "22:00", "to": "07:00"}}}"#, #"p.json: device "bob": quietHours.timeZone is missing"#),
        (
            #"{"bob": {"quietHours": {"from": "22:00", "to": "07:00", "timezone": "UTC"}}}"#,
            #"p.json: device "bob": quietHours has an unknown key "timezone" (did you mean "timeZone"?)"#
        ),
        (#"{"bob": {"quietHours": "22:00-07:00"}}"#, #"p.json: device "bob": quietHours must be an object"#),
        (
            #"{"bob": {"quietHours": {"from": 22, "to": "07:00", "timeZone": "UTC"}}}"#,
            #"p.json: device "bob": quietHours.from must be a string, not a number"#
        ),
    ])
    func profilesRefuse(text: String, message: String) {
        #expect {
            _ = try ProfilesFile.parse(Array(text.utf8), source: "p.json")
        } throws: { error in
            guard let error = error as? ProfilesError else { return false }
            return error.kind == .badData && error.description.hasPrefix(message)
        }
    }
}
