@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders

/// The engine step: one record through the engine, counted, explained and planned.
extension Pipeline {
    /// Runs one record through the engine (an unreadable one is reported and counted), and
    /// commits when the batch is due.
    public func process(_ record: FixRecord, source: String, isLive: Bool) throws(WatchError) {
        stage.requireRunning(for: "process(_:source:isLive:)")
        try process(record, source: source, isLive: isLive, engine: engine)
    }

    /// `engine` is `self.engine`, held by the caller's loop (retained once, not once a record);
    /// a reload replaces it only between records.
    func process(_ record: FixRecord, source: String, isLive: Bool, engine: ProximityEngine) throws(WatchError) {
        currentInputIsLive = isLive
        statistics.recordsRead += 1
        switch record {
        case .invalid(let issue):
            statistics.unreadable += 1
            if options.strict { throw WatchError(kind: issue.kind, origin: .record(issue), message: issue.description) }
            diagnostics.writeLine(TerminalText.safe(issue.description))
            if isLive || options.flushEachEvent { try? diagnostics.flush() }
        case .fix(let fix, let line):
            try process(fix, location: "\(source):\(line)", engine: engine)
        }
        try commitIfDue()
    }

    private func process(_ fix: Fix, location: @autoclosure () -> String, engine: ProximityEngine) throws(WatchError) {
        events.removeAll(keepingCapacity: true)
        let disposition = engine.process(fix, into: &events)
        switch disposition {
        case .dropped(let reason):
            statistics.dropped[reason, default: 0] += 1
            if reason == .stale, engine.lastStaleRepeatedTime {
                if currentFormat == .nmea { statistics.nmeaSameSecond += 1 } else { statistics.sameTime += 1 }
            }
        case .used:
            statistics.used += 1
        }
        if options.explain { explain(fix, disposition: disposition, location: location()) }
        fixObserver?(fix, disposition, events)
        if disposition == .used { whereabouts?.record(fix, events: events, catalog: catalog) }
        guard !events.isEmpty else { return }
        let fixNumber = engine.lastFixNumber
        var printed = false
        for event in events {
            statistics.count(event)
            guard event.isNotification || plan.printsEveryEvent else { continue }
            printed =
                plan.add(
                    event, of: fix, fixNumber: fixNumber, catalog: catalog, emitters: emitters,
                    takeID: { commits?.store.takeNotificationID() ?? 0 }) || printed
        }
        if printed {
            try emitters.flushIfDue(durable: false, live: currentInputIsLive)
        } else if commits == nil {
            // No log to write first: emit at once.
            try emitPending()
        }
    }
}
