/// A session's local database while it is open: whose it is, its file, and the outbox that
/// stores and publishes the sends in it.
///
/// One value, so the three are there together or not at all: a database without its outbox
/// or its path, or a user id that outlived its file, cannot be written down.
struct OpenDatabase {
    /// The user the database belongs to (given, or named by the token).
    let userID: String
    /// The file, claimed in the engine's runtime until the database closes.
    let path: String
    /// Stores, publishes and acknowledges messages on the session's loop; it holds the database.
    let outbox: SessionOutbox

    /// The database itself, the outbox's.
    var database: SessionDatabase { outbox.database }
}
