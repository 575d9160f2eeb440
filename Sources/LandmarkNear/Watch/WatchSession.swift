#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Wires fix readers, the proximity engine, event lines, payloads and `.apns` files
/// together: the whole of `landmark-near watch`, minus argument parsing.
///
///     let session = try WatchSession(catalog: .embedded, options: WatchOptions(),
///                                    output: OutputWriter(), diagnostics: OutputWriter(descriptor: 2))
///     let statistics = try session.run(inputs: [.file("drive.gpx")])
public final class WatchSession {
    public let catalog: LandmarkCatalog
    public let options: WatchOptions
    private let engine: ProximityEngine
    private let output: OutputWriter
    private let diagnostics: OutputWriter
    private let apnsWriter: APNsFileWriter?
    private var payloads: PayloadCache
    public private(set) var statistics = WatchStatistics()
    private var fixNumber = 0
    private var events: [ProximityEvent] = []

    public init(catalog: LandmarkCatalog, options: WatchOptions, output: OutputWriter, diagnostics: OutputWriter) throws(WatchError) {
        self.catalog = catalog
        self.options = options
        self.output = output
        self.diagnostics = diagnostics
        do {
            engine = try ProximityEngine(catalog: catalog, configuration: options.engine)
        } catch {
            throw WatchError(kind: error.kind, origin: .favorites, message: error.description)
        }
        if let directory = options.apnsDirectory {
            do {
                apnsWriter = try APNsFileWriter(directory: directory)
            } catch {
                throw WatchError(kind: error.kind, origin: .apnsDirectory, message: error.description)
            }
        } else {
            apnsWriter = nil
        }
        payloads = PayloadCache(options: options.payload)
    }

    /// Reads every input in order (stdin for `.standardInput`) through one engine, so device
    /// state carries across files. Missing files are reported before anything is read.
    @discardableResult
    public func run(inputs: [FixInput]) throws(WatchError) -> WatchStatistics {
        for case .file(let path) in inputs where !FileManager.default.fileExists(atPath: path) {
            throw WatchError(kind: .missingInput, origin: .input, message: "\(path): no such file")
        }
        defer {
            apnsWriter?.synchronizeDirectory()
            statistics.devices = engine.deviceCount
            try? output.flush()
            try? diagnostics.flush()
        }
        for input in inputs {
            let reader: FixReader
            do {
                reader = try FixReader(input: input, format: options.format)
            } catch {
                throw WatchError(kind: error.kind, origin: .input, message: error.description)
            }
            try run(reader)
        }
        return statistics
    }

    private func run(_ reader: FixReader) throws(WatchError) {
        while true {
            let record: FixRecord?
            do {
                record = try reader.next()
            } catch {
                throw WatchError(kind: error.kind, origin: .input, message: error.description)
            }
            guard let record else { return }
            statistics.recordsRead += 1
            switch record {
            case .invalid(let issue):
                statistics.unreadable += 1
                if options.strict { throw WatchError(kind: issue.kind, origin: .record(issue), message: issue.description) }
                diagnostics.writeLine(TerminalText.safe(issue.description))
                if options.flushEachEvent { try? diagnostics.flush() }
            case .fix(let fix, let line):
                fixNumber += 1
                try process(fix, location: "\(reader.sourceName):\(line)")
            }
        }
    }

    private func process(_ fix: Fix, location: @autoclosure () -> String) throws(WatchError) {
        events.removeAll(keepingCapacity: true)
        let disposition = engine.process(fix, into: &events)
        switch disposition {
        case .dropped(let reason):
            statistics.dropped[reason, default: 0] += 1
        case .used:
            statistics.used += 1
        }
        if options.explain { explain(fix, disposition: disposition, location: location()) }
        guard !events.isEmpty else { return }
        var printed = false
        for event in events {
            switch event.kind {
            case .exit: statistics.exits += 1
            case .enter:
                statistics.enters += 1
                if let suppression = event.suppression {
                    statistics.suppressed[suppression, default: 0] += 1
                } else {
                    statistics.notifications += 1
                }
            }
            guard event.isNotification || options.events == .all else { continue }
            let landmark = catalog[event.landmarkIndex]
            var payload: String?
            if event.isNotification {
                let text = payloadText(for: event.landmarkIndex)
                payload = text
                if let apnsWriter {
                    do {
                        _ = try apnsWriter.write(text, device: fix.device, landmarkID: landmark.id, time: fix.time, fixNumber: fixNumber)
                        statistics.apnsFilesWritten += 1
                    } catch {
                        throw WatchError(kind: error.kind, origin: .apnsDirectory, message: error.description)
                    }
                }
            }
            output.writeLine(EventLine.make(event: event, fix: fix, landmark: landmark, payload: payload,
                                            includeNotified: options.events == .all))
            printed = true
        }
        if printed && options.flushEachEvent {
            do {
                try output.flush()
            } catch {
                throw WatchError(kind: error.kind, origin: .output, message: "stdout: \(error.description)")
            }
        }
    }

    private func payloadText(for landmarkIndex: Int) -> String {
        payloads.json(for: catalog[landmarkIndex], index: landmarkIndex)
    }

    private func explain(_ fix: Fix, disposition: FixDisposition, location: String) {
        var line = "explain: \(location) device \(JSONWriter.quoted(fix.device))"
        if let time = fix.time { line += " at \(time.rfc3339)" }
        line += ": "
        switch disposition {
        case .dropped(.accuracy):
            line += "dropped, accuracy \(JSONWriter.number(fix.accuracy ?? 0)) m is worse than the maximum accuracy \(JSONWriter.number(options.engine.maxAccuracy)) m"
        case .dropped(.stale):
            line += "dropped as stale, its time is not later than the device's latest used fix"
        case .dropped(.invalid):
            line += "dropped, \(fix.coordinate.invalidReason ?? "invalid coordinate")"
        case .used:
            if events.isEmpty {
                if let nearest = engine.nearestFavorite(of: fix.device, to: fix.coordinate) {
                    let name = catalog[nearest.landmarkIndex].name
                    let distance = JSONWriter.number(EventLine.roundedToMillimetres(nearest.distance))
                    if nearest.isInside {
                        line += "no alert, already inside \(JSONWriter.quoted(name)) (\(distance) m; exit beyond \(JSONWriter.number(options.engine.radius + options.engine.hysteresis)) m)"
                    } else {
                        line += "no alert, nearest favourite \(JSONWriter.quoted(name)) is \(distance) m away (radius \(JSONWriter.number(options.engine.radius)) m)"
                    }
                } else {
                    line += "no alert, the device has no favourite landmarks"
                }
            } else {
                line += events.map { event in
                    let name = JSONWriter.quoted(catalog[event.landmarkIndex].name)
                    let distance = JSONWriter.number(EventLine.roundedToMillimetres(event.distance))
                    switch (event.kind, event.suppression) {
                    case (.exit, _): return "exit \(name) at \(distance) m"
                    case (.enter, nil): return "enter \(name) at \(distance) m, notified"
                    case (.enter, .cooldown?): return "enter \(name) at \(distance) m, suppressed: notified for it less than the cooldown \(JSONWriter.number(options.engine.cooldown)) s ago"
                    case (.enter, .profile?): return "enter \(name) at \(distance) m, suppressed: the device's profile has prefersNotifications false"
                    }
                }.joined(separator: "; ")
            }
        }
        diagnostics.writeLine(TerminalText.safe(line))
    }
}
