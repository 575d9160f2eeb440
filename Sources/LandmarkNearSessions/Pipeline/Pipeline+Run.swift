import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders

/// The one run loop, and the inputs of `watch` and `map` read through it.
extension Pipeline {
    /// Reads every input in order (stdin for `.standardInput`) through one engine, so device
    /// state carries across files. Missing files are reported before anything is read. With
    /// `signals`, SIGINT and SIGTERM stop at a record boundary (`statistics.stoppedBy`) and
    /// SIGHUP reloads `--landmarks` and `--profiles`.
    @discardableResult
    public func run(inputs: [FixInput], signals: SignalInbox? = nil) throws(WatchError) -> WatchStatistics {
        try run(inputs: inputs, signals: signals, readingAhead: nil)
    }

    /// `readingAhead` may be reading the first input already (started by the CLI before the
    /// catalog was loaded, by `ReadAheadRule`); it is used when that input is read ahead at
    /// all, else stopped.
    @discardableResult
    package func run(inputs: [FixInput], signals: SignalInbox?, readingAhead: FixReadAhead?) throws(WatchError) -> WatchStatistics {
        var prestarted = readingAhead
        defer { prestarted?.stop() }
        for case .file(let path) in inputs where !FileManager.default.fileExists(atPath: path) {
            throw WatchError(kind: .missingInput, origin: .input, message: "\(path): no such file")
        }
        self.signals = signals
        defer {
            self.signals = nil
            statistics.devices = engine.deviceCount
            try? diagnostics.flush()
        }
        do throws(WatchError) {
            try resume()
            for input in inputs where stop == nil {
                let aheadOfTime = ReadAheadRule.applies(
                    to: input, keepsState: commits != nil, delivers: emitters.delivery != nil)
                if aheadOfTime {
                    let ahead: FixReadAhead
                    if let early = prestarted, early.input == input, early.format == options.format {
                        ahead = early
                        prestarted = nil
                    } else {
                        ahead = FixReadAhead(input: input, format: options.format)
                    }
                    inputsStarted += 1
                    var source = ReadAheadSource(ahead: ahead)
                    defer { if !source.ended { ahead.stop() } }
                    currentInputIsLive = false
                    try drain(&source)
                    continue
                }
                prestarted?.stop()
                prestarted = nil
                let reader: FixReader
                do {
                    reader = try FixReader(input: input, format: options.format, pauseHandler: pauseBridge)
                } catch {
                    if error.isInterrupted { break }
                    throw WatchError(kind: error.kind, origin: .input, message: error.description)
                }
                currentInputIsLive = reader.isLive
                reader.nmeaLatestRMCTime = inputsStarted == 0 ? nmeaRMCTime : nil
                inputsStarted += 1
                currentReader = reader
                defer {
                    nmeaRMCTime = reader.nmeaLatestRMCTime
                    currentReader = nil
                }
                var source = ReaderSource(reader: reader)
                try drain(&source)
            }
            try finish()
        } catch {
            // What could not be printed stays decided (emitted again next time); save the rest.
            fail()
            guard error.isClosedOutput else {
                try? emitters.flush()
                throw error
            }
            stop = .outputClosed
        }
        statistics.stoppedBy = stop
        return statistics
    }

    /// The run loop: takes `source`'s steps until it ends or the run stops (a signal, a closed
    /// output), and does with each what the step says. Every source goes through here.
    package func drain<Source: FixSource>(_ source: inout Source) throws(WatchError) {
        stage.requireRunning(for: "drain(_:)")
        defer { currentFormat = nil }
        var sourceName = source.sourceName
        let isLive = source.isLive
        var recordsOfThisSource = 0
        // Held here, retained once rather than once a record; taken again after a reload.
        var engine = self.engine
        var generation = engineGeneration
        while stop == nil {
            switch source.next(status) {
            case .record(let record):
                if generation != engineGeneration {
                    engine = self.engine
                    generation = engineGeneration
                }
                // The device buckets of the records a few steps on, fetched while these are
                // processed, once the device table has outgrown the caches (below, it only costs).
                if engine.deviceCount >= 1 << 16 {
                    let upcoming = source.upcoming()
                    if !upcoming.isEmpty { engine.prefetchDevices(of: upcoming) }
                }
                recordsOfThisSource += 1
                currentFormat = source.format
                do {
                    try process(record, source: sourceName, isLive: isLive, engine: engine)
                } catch {
                    guard source.processingFailed(error) else { throw error }
                }
            case .origin(let name):
                sourceName = name
            case .boundary:
                if signals != nil { _ = signalArrived() }
            case .idle:
                do {
                    try commit()
                    try markEmittedDone()
                    source.committed(statistics)
                } catch {
                    guard source.commitFailed(error) else { throw error }
                }
            case .reload:
                if let onReload {
                    onReload(self)
                } else {
                    reloadFromFiles()
                }
            case .apply(let change):
                change(self)
            case .batchEnd:
                do {
                    try commit()
                    source.committed(statistics)
                } catch {
                    guard source.commitFailed(error) else { throw error }
                }
            case .end(let end):
                if let end { try ended(end, recordsOfThisSource: recordsOfThisSource, sourceName: sourceName) }
                return
            }
        }
    }

    /// The run's one warning that times without a zone are read as UTC, at the end of the first
    /// input that held one, or (live) at the first pause after it: stderr says it while it matters.
    func warnOfZonelessTime(_ time: ZonelessTime?, sourceName: String) {
        guard !warnedOfZonelessTime, let time else { return }
        warnedOfZonelessTime = true
        diagnostics.writeLine(TerminalText.safe("\(options.commandName): warning: " + time.warning(source: sourceName)))
        try? diagnostics.flush()
    }

    /// The end of an input: its error, the NMEA sentences without a fix, and when it gave
    /// nothing, why (no silent loss: docs/reference/fixes.md).
    private func ended(_ end: InputEnd, recordsOfThisSource: Int, sourceName: String) throws(WatchError) {
        warnOfZonelessTime(end.zonelessTime, sourceName: sourceName)
        if end.format == .kml {
            statistics.lineStringCoordinatesSkipped += end.skipped.count(where: { $0 == KMLVocabulary.lineStringCoordinateSkipped })
        }
        if let error = end.error {
            if let deferredError { throw deferredError }
            if error.isInterrupted { return }
            throw WatchError(kind: error.kind, origin: .input, message: error.description)
        }
        if end.format == .nmea {
            statistics.sentencesWithoutFix += end.skipped.count(where: {
                $0 != NMEALineDecoder.notNMEA && $0 != NMEALineDecoder.gpsdReport
            })
        }
        if recordsOfThisSource == 0, let why = end.noFixExplanation {
            if let forced = options.format, end.skipped.count(where: { $0 == NMEALineDecoder.notNMEA }) > 0 {
                // The user said the input is NMEA, and it held lines of something else: an
                // error, not a note. (Blanks, comments and gpsd's headers stay a warning; the
                // other formats refuse what is not theirs record by record already.)
                statistics.forcedFormatReadNothing += 1
                diagnostics.writeLine(TerminalText.safe("\(sourceName): --format \(forced.rawValue) read no fix: \(why)"))
            } else {
                statistics.warnings += 1
                diagnostics.writeLine(TerminalText.safe("\(sourceName): warning: \(why)"))
            }
        }
    }
}
