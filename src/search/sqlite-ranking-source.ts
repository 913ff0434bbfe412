// The C source of Hamlet's SQLite extension (built and loaded by ./sqlite-ranking.ts). It adds two
// functions to a connection:
//
//   hamlet_bm25(search_fts, avgdl, w_1 … w_columns, idf_1 … idf_phrases)
//     FTS5's bm25 (k1 = 1.2, b = 0.75, each phrase's frequency weighted per column), with the
//     statistics handed in by the caller instead of read from the whole table: the average
//     document length and each phrase's idf, in the order the phrases appear in the MATCH text.
//     FTS5's own bm25() counts every document of the table that holds each phrase on every query,
//     so every community's posts changed every other community's ranking, and a search's cost grew
//     with the whole database; here the caller passes its searched communities' statistics.
//     Larger is better (FTS5's bm25() is negated).
//
//   hamlet_doclen(sz)
//     The tokens of one row of search_fts_docsize: the sum of its column sizes (one SQLite varint
//     each), what a community's average document length is computed from.
//
// Embedded as text so that it builds wherever Hamlet runs (a checkout, a bundle, an installed
// package) from the one sqlite3ext.h better-sqlite3 ships.
export const RANKING_C_SOURCE = String.raw`
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include <string.h>

#define MAX_PHRASES 256

static void hamletBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                       int nVal, sqlite3_value **apVal) {
  int nCol = api->xColumnCount(fts);
  int nPhrase = api->xPhraseCount(fts);
  double freq[MAX_PHRASES];
  int nInst = 0, nTok = 0, rc, i;
  double avgdl, norm, score = 0.0;
  const double k1 = 1.2, b = 0.75;
  if (nVal != 1 + nCol + nPhrase) {
    sqlite3_result_error(ctx, "hamlet_bm25: pass the average length, one weight per column and one idf per phrase", -1);
    return;
  }
  if (nPhrase > MAX_PHRASES) {
    sqlite3_result_error(ctx, "hamlet_bm25: too many phrases", -1);
    return;
  }
  memset(freq, 0, sizeof(double) * (size_t)nPhrase);
  rc = api->xInstCount(fts, &nInst);
  for (i = 0; rc == SQLITE_OK && i < nInst; i++) {
    int ip, ic, io;
    rc = api->xInst(fts, i, &ip, &ic, &io);
    if (rc == SQLITE_OK) freq[ip] += sqlite3_value_double(apVal[1 + ic]);
  }
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &nTok);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  avgdl = sqlite3_value_double(apVal[0]);
  if (!(avgdl > 0.0)) avgdl = 1.0;
  norm = k1 * (1.0 - b + b * (double)nTok / avgdl);
  for (i = 0; i < nPhrase; i++) {
    if (freq[i] > 0.0)
      score += sqlite3_value_double(apVal[1 + nCol + i]) * (freq[i] * (k1 + 1.0)) / (freq[i] + norm);
  }
  sqlite3_result_double(ctx, score);
}

static void hamletDoclen(sqlite3_context *ctx, int nVal, sqlite3_value **apVal) {
  const unsigned char *p = (const unsigned char *)sqlite3_value_blob(apVal[0]);
  int n = sqlite3_value_bytes(apVal[0]);
  sqlite3_int64 total = 0;
  int i = 0;
  (void)nVal;
  /* SQLite's varints (FTS5's record format): 7 bits a byte, most significant first, the high bit
     set while more follow; a ninth byte gives all its 8 bits. */
  while (p && i < n) {
    sqlite3_uint64 v = 0;
    int k;
    for (k = 0; k < 9 && i < n; k++) {
      unsigned char c = p[i++];
      if (k == 8) {
        v = (v << 8) | c;
        break;
      }
      v = (v << 7) | (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    total += (sqlite3_int64)v;
  }
  sqlite3_result_int64(ctx, total);
}

static fts5_api *fts5Of(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *stmt = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(stmt, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(stmt);
  }
  sqlite3_finalize(stmt);
  return api;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_hamletranking_init(sqlite3 *db, char **err, const sqlite3_api_routines *pApi) {
  fts5_api *fts;
  int rc;
  SQLITE_EXTENSION_INIT2(pApi);
  fts = fts5Of(db);
  if (!fts || fts->iVersion < 2) {
    *err = sqlite3_mprintf("this SQLite has no FTS5");
    return SQLITE_ERROR;
  }
  rc = fts->xCreateFunction(fts, "hamlet_bm25", 0, hamletBm25, 0);
  if (rc == SQLITE_OK)
    rc = sqlite3_create_function(db, "hamlet_doclen", 1,
                                 SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
                                 hamletDoclen, 0, 0);
  return rc;
}
`;

/** The entry point SQLite calls when it loads the built library. */
export const RANKING_ENTRY_POINT = 'sqlite3_hamletranking_init';
