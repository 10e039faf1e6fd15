import CSQLite

/// SQLite's default page cache, wrapped so that the truncation ending every transaction
/// costs nothing when no cached page lies past the file's end.
///
/// Why: at the end of each transaction SQLite drops cached pages past the database's end
/// (`xTruncate`). Its cache bounds them by the highest page number it ever held, and a B-tree
/// rebalance parks a page for a moment under the number just past the 1 GiB lock byte
/// (524,289 with 2 KiB pages). From then on every commit's truncation finds that bound above
/// the file's end and walks the whole hash table: in imserver's 64 MiB cache, 32,768 buckets
/// and about as many pages, 7 % of the event loop at saturation (BENCHMARKS.md, issue 17's
/// ninth step). Here each cache keeps its own bound (`PageKeyBound`, which leaves the parking
/// number out) and passes a truncation on only when a page may lie at or past its limit, which
/// after a rolled-back transaction that grew the file it does.
///
/// Measured again at 5d174ec (2026-11-29, perf record of imserver saturated by 20 pairs, a
/// build that skipped the wrapper beside one that did not; BENCHMARKS.md, "SQLite's own
/// layers"): without it one function of libsqlite3 (static, so unnamed in Debian's build) took
/// 2.2 to 3.1 % of the samples, and with it that function does not show.
///
/// Installed process-wide before SQLite initializes (`Database`); each cache is used by one
/// connection at a time, as SQLite's own is, so its state needs no lock.
enum TrackedPageCache {
    /// Whether SQLite took the wrapper (it refuses once initialized, e.g. when another library
    /// opened a database first); then its own cache serves unwrapped.
    static var isInstalled: Bool { installed }

    /// Wraps SQLite's current page cache. Call once, before SQLite initializes.
    static func install() {
        guard !installed, imsh_sqlite_get_page_cache(base) == SQLITE_OK, base.pointee.xCreate != nil else { return }
        var wrapper = methods()
        wrapper.iVersion = base.pointee.iVersion
        installed = imsh_sqlite_set_page_cache(&wrapper) == SQLITE_OK
    }

    /// SQLite's own methods. Written once by `install`, before any connection exists;
    /// read-only after. On the heap: Swift 6.3 gives a zero-initialized global of this type
    /// 100 bytes, not the struct's 104 (the padding after `iVersion` is left out), so
    /// SQLite's copy into it ran over the variable stored next to it.
    nonisolated(unsafe) private static let base: UnsafeMutablePointer<sqlite3_pcache_methods2> = {
        let methods = UnsafeMutablePointer<sqlite3_pcache_methods2>.allocate(capacity: 1)
        methods.initialize(to: sqlite3_pcache_methods2())
        return methods
    }()
    nonisolated(unsafe) private static var installed = false

    /// One cache: SQLite's, and the bound of the page numbers it holds.
    private struct Cache {
        let inner: OpaquePointer
        var bound: PageKeyBound
    }

    private static func cache(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<Cache> {
        UnsafeMutablePointer<Cache>(pointer!)
    }

    /// The wrapper's methods (a function: the struct's `pArg` pointer keeps it from being a constant).
    private static func methods() -> sqlite3_pcache_methods2 {
        sqlite3_pcache_methods2(
            iVersion: 1,
            pArg: nil,
            xInit: { _ in TrackedPageCache.base.pointee.xInit?(TrackedPageCache.base.pointee.pArg) ?? SQLITE_OK },
            xShutdown: { _ in TrackedPageCache.base.pointee.xShutdown?(TrackedPageCache.base.pointee.pArg) },
            xCreate: { pageSize, extraSize, purgeable in
                guard let inner = TrackedPageCache.base.pointee.xCreate?(pageSize, extraSize, purgeable) else { return nil }
                let cache = UnsafeMutablePointer<Cache>.allocate(capacity: 1)
                cache.initialize(to: Cache(inner: inner, bound: PageKeyBound(pageSize: Int(pageSize))))
                return OpaquePointer(cache)
            },
            xCachesize: { pointer, size in
                TrackedPageCache.base.pointee.xCachesize?(TrackedPageCache.cache(pointer).pointee.inner, size)
            },
            xPagecount: { pointer in TrackedPageCache.base.pointee.xPagecount?(TrackedPageCache.cache(pointer).pointee.inner) ?? 0 },
            xFetch: { pointer, key, create in
                let cache = TrackedPageCache.cache(pointer)
                let page = TrackedPageCache.base.pointee.xFetch?(cache.pointee.inner, key, create)
                if page != nil && create != 0 { cache.pointee.bound.fetched(key) }
                return page
            },
            xUnpin: { pointer, page, discard in
                TrackedPageCache.base.pointee.xUnpin?(TrackedPageCache.cache(pointer).pointee.inner, page, discard)
            },
            xRekey: { pointer, page, old, new in
                let cache = TrackedPageCache.cache(pointer)
                TrackedPageCache.base.pointee.xRekey?(cache.pointee.inner, page, old, new)
                cache.pointee.bound.renumbered(to: new)
            },
            xTruncate: { pointer, limit in
                let cache = TrackedPageCache.cache(pointer)
                guard cache.pointee.bound.mayHold(from: limit) else { return }
                TrackedPageCache.base.pointee.xTruncate?(cache.pointee.inner, limit)
                cache.pointee.bound.truncated(from: limit)
            },
            xDestroy: { pointer in
                let cache = TrackedPageCache.cache(pointer)
                TrackedPageCache.base.pointee.xDestroy?(cache.pointee.inner)
                cache.deinitialize(count: 1)
                cache.deallocate()
            },
            xShrink: { pointer in TrackedPageCache.base.pointee.xShrink?(TrackedPageCache.cache(pointer).pointee.inner) }
        )
    }
}
