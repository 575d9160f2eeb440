import CSQLite

/// The one owner of an `sqlite3` connection: statements are prepared once and reused, and
/// the connection is closed when the owner goes away.
package final class SQLiteDatabase {
    let path: String
    private let handle: OpaquePointer

    /// - Parameters:
    ///   - readOnly: open an existing file for reading only (never creating it, never writing
    ///     it: `state check` of a file a run may hold).
    ///   - uri: open this `file:` URI instead of `path` (`?immutable=1`).
    package init(path: String, readOnly: Bool = false, uri: String? = nil) throws(StateError) {
        self.path = path
        var opened: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        if uri != nil { flags |= SQLITE_OPEN_URI }
        let status = sqlite3_open_v2(uri ?? path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(opened)
            throw StateError(.io, path: path, reason: "cannot open: \(reason)")
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows (schema, pragmas, transactions).
    package func execute(_ sql: String) throws(StateError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let reason = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            throw error(status, reason)
        }
    }

    package func prepare(_ sql: String) throws(StateError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, lastMessage) }
        return SQLiteStatement(statement, database: self)
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Maps a result code to an error kind: a file that is not a database is bad data.
    func error(_ status: Int32, _ reason: String) -> StateError {
        switch status & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT, SQLITE_FORMAT: return StateError(.badData, path: path, reason: reason)
        case SQLITE_BUSY, SQLITE_LOCKED: return StateError(.temporaryFailure, path: path, reason: reason)
        default: return StateError(.io, path: path, reason: reason)
        }
    }
}

/// One prepared statement, owned here and finalized on deinit. Bind, then `step()` rows
/// (or `run()` a statement without rows); it is reset for the next use.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteDatabase

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// SQLite copies bound text and blobs at once (`SQLITE_TRANSIENT`).
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }

    package func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    package func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }

    package func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    package func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    package func bind(_ index: Int32, _ value: String?) {
        guard let value else { sqlite3_bind_null(handle, index); return }
        if value.isEmpty {
            // A null pointer would bind NULL, not an empty text.
            sqlite3_bind_text(handle, index, "", 0, SQLiteStatement.transient)
            return
        }
        var text = value
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), SQLiteStatement.transient)
            }
        }
    }

    /// Advances to the next row; false when there is none (the statement is then reset).
    package func step() throws(StateError) -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        sqlite3_reset(handle)
        if status == SQLITE_DONE { return false }
        throw database.error(status, database.lastMessage)
    }

    /// Runs a statement that returns no rows, then clears its bindings.
    package func run() throws(StateError) {
        while try step() {}
        sqlite3_clear_bindings(handle)
    }

    func finishRows() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package func int64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func double(_ column: Int32) -> Double? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_double(handle, column)
    }

    package func string(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}
