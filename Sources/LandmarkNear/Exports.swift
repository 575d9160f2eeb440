// The library product: one `import LandmarkNear` reaches every layer, as `import NIO` reaches
// swift-nio's. Each layer is a module of its own (Package.swift), so the layering is kept by the
// compiler; this file only gathers them for users of the library.
@_exported import LandmarkNearCore
@_exported import LandmarkNearDelivery
@_exported import LandmarkNearEngine
@_exported import LandmarkNearGeodesy
@_exported import LandmarkNearIndex
@_exported import LandmarkNearOutputs
@_exported import LandmarkNearParser
@_exported import LandmarkNearReaders
@_exported import LandmarkNearServer
@_exported import LandmarkNearSessions
