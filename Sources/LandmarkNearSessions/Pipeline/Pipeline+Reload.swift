@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearReaders

#if canImport(Glibc)
import Glibc
#endif

/// Reloads (SIGHUP), and what a live reader tells the pipeline while it waits for input.
extension Pipeline {
    /// Replaces the catalog and profiles, keeping every device's state (landmarks that left
    /// the catalog, or a device's favourites, are forgotten). On error nothing changes.
    public func reload(catalog newCatalog: LandmarkCatalog, profiles: DeviceProfiles) throws(WatchError) {
        stage.requireRunning(for: "reload(catalog:profiles:)")
        var configuration = options.engine
        configuration.profiles = profiles
        let fresh = try Pipeline.makeEngine(catalog: newCatalog, configuration: configuration)
        fresh.tracksChanges = commits != nil
        fresh.explainsMotion = options.explain
        commits?.carry(takeChanges())
        for device in engine.snapshots() { fresh.restore(device) }
        engine = fresh
        engineGeneration &+= 1
        catalog = newCatalog
        options.engine = configuration
        emitters.delivery?.tokens = Emitters.tokens(of: profiles)
        plan.catalogChanged(options: options)
    }

    /// Reads `--landmarks` and `--profiles` again; a file that cannot be used is reported and
    /// the old one kept.
    func reloadFromFiles() {
        let prefix = options.commandName + ": SIGHUP: "
        defer { try? diagnostics.flush() }
        guard options.landmarksPath != nil || options.profilesPath != nil else {
            diagnostics.writeLine(prefix + "nothing to reload (the catalog and profiles did not come from files)")
            return
        }
        let keeping = "; keeping the previous catalog and profiles"
        var newCatalog = catalog
        var newProfiles = options.engine.profiles
        do {
            if let path = options.landmarksPath { newCatalog = try CatalogLoader.load(path: path) }
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + error.description + keeping))
            return
        }
        do {
            if let path = options.profilesPath { newProfiles = try ProfilesFile.load(path: path) }
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + error.description + keeping))
            return
        }
        if let overlay {
            // Idempotent over the catalog in force: its ids are found where the changes put them.
            do {
                newCatalog = try overlay.catalog(over: newCatalog)
            } catch {
                diagnostics.writeLine(TerminalText.safe(prefix + error.description + keeping))
                return
            }
            newProfiles = overlay.profiles(over: newProfiles)
        }
        do {
            try reload(catalog: newCatalog, profiles: newProfiles)
            diagnostics.writeLine(
                prefix + "reloaded \(newCatalog.landmarks.count) landmarks"
                    + (options.profilesPath != nil ? " and \(newProfiles.devices.count) profiles" : ""))
        } catch {
            diagnostics.writeLine(TerminalText.safe(prefix + error.description + keeping))
        }
    }

    /// The reader's input pauses (no byte is waiting): commit now, so a live notification is
    /// out at once, and mark it done at once too, since no next batch is coming soon to carry
    /// the mark. A regular file never pauses, so a replay keeps one commit a batch.
    func inputWillPause() -> Bool {
        if !warnedOfZonelessTime, let currentReader {
            warnOfZonelessTime(currentReader.zonelessTime, sourceName: currentReader.sourceName)
        }
        do {
            try commit()
            try markEmittedDone()
            return true
        } catch {
            deferredError = error
            return false
        }
    }

    /// A signal is pending: SIGHUP reloads, SIGINT and SIGTERM stop.
    func signalArrived() -> Bool {
        guard let signals else { return true }
        while let signal = signals.take() {
            if signal == SIGHUP {
                reloadFromFiles()
            } else {
                stop = .signal(signal)
            }
        }
        return stop == nil
    }
}

/// A live reader's pause handler for a pipeline (the reader holds it weakly, the pipeline owns
/// it): the reader's pauses and the signals it polls become the pipeline's commits and stops.
final class PauseBridge: InputPauseHandler {
    unowned let pipeline: Pipeline
    init(pipeline: Pipeline) { self.pipeline = pipeline }
    var wakeDescriptor: Int32 { pipeline.signals?.descriptor ?? -1 }
    func inputWillPause() -> Bool { pipeline.inputWillPause() }
    func wakeDescriptorIsReadable() -> Bool { pipeline.signalArrived() }
}
