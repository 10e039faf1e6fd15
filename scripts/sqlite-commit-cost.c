/*
 * What one small write transaction costs SQLite, per journal and locking mode: the figures
 * behind Database.Configuration.compact (BENCHMARKS.md, issue 17's fifth step).
 *
 *   cc -O2 scripts/sqlite-commit-cost.c -o /tmp/sqlite-commit-cost -lsqlite3
 *   /tmp/sqlite-commit-cost DIR [TRANSACTIONS]
 *
 * For each mode it makes DIR/commit-MODE-LOCKING.sqlite with the session schema's message
 * table, then inserts one message per transaction (synchronous=OFF, a 64 KiB cache given back
 * after each transaction, as a session does) and prints the CPU and wall time per transaction.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double wall_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

static int run(const char *dir, const char *journal, int exclusive, int count) {
    char path[4096], sql[256];
    snprintf(path, sizeof path, "%s/commit-%s-%s.sqlite", dir, journal, exclusive ? "exclusive" : "normal");
    remove(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s; PRAGMA synchronous=OFF; PRAGMA cache_size=-64; PRAGMA locking_mode=%s",
             journal, exclusive ? "EXCLUSIVE" : "NORMAL");
    sqlite3_exec(db, sql, 0, 0, 0);
    sqlite3_exec(db, "CREATE TABLE message(id INTEGER PRIMARY KEY, uid TEXT UNIQUE, cid TEXT, direction INTEGER NOT NULL, "
                     "peer TEXT NOT NULL, text TEXT NOT NULL, sent_at INTEGER NOT NULL, state INTEGER NOT NULL); "
                     "CREATE INDEX message_peer ON message(peer, id)", 0, 0, 0);
    sqlite3_stmt *insert;
    sqlite3_prepare_v2(db, "INSERT INTO message(uid, cid, direction, peer, text, sent_at, state) VALUES (?, ?, 0, 'bob', ?, 1, 0)",
                       -1, &insert, 0);
    double cpu = cpu_seconds(), wall = wall_seconds();
    for (int i = 0; i < count; i++) {
        char uid[32], cid[40];
        snprintf(uid, sizeof uid, "u-%08d", i);
        snprintf(cid, sizeof cid, "%032d", i);
        sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
        sqlite3_bind_text(insert, 1, uid, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, cid, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 3, "bench 1764121212121212121", -1, SQLITE_STATIC);
        sqlite3_step(insert);
        sqlite3_reset(insert);
        sqlite3_exec(db, "COMMIT", 0, 0, 0);
        sqlite3_db_release_memory(db);
    }
    printf("%-8s %-9s locking: %5.1f us CPU, %5.1f us wall per transaction\n", journal, exclusive ? "exclusive" : "normal",
           (cpu_seconds() - cpu) * 1e6 / count, (wall_seconds() - wall) * 1e6 / count);
    sqlite3_finalize(insert);
    sqlite3_close(db);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [TRANSACTIONS]\n", argv[0]);
        return 2;
    }
    int count = argc > 2 ? atoi(argv[2]) : 20000;
    const char *journals[] = {"PERSIST", "WAL"};
    for (int j = 0; j < 2; j++)
        for (int exclusive = 0; exclusive < 2; exclusive++)
            if (run(argv[1], journals[j], exclusive, count)) return 1;
    return 0;
}
