#if canImport(Glibc)
import Glibc
#endif

// Thin names for libm so the generators read as formulas.
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
@inline(__always) func _asin(_ x: Double) -> Double { asin(x) }
@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
