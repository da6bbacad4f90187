/*
 * A first-fit memory planner as a Planck planner library, in C: the same
 * planner as examples/python/first_fit.py, behind the C ABI of
 * include/planck/planner.h.
 *
 *   cc -shared -fPIC -I include -o first_fit.so examples/c/first_fit.c
 *   planck plan model.sched --planner-lib ./first_fit.so
 *
 * Lifetimes follow docs/planners.md: top-level entries are numbered from 0, a
 * loop is one entry that takes everything its body takes and then its flag,
 * and a buffer lives from the first entry that takes it to the last. Each
 * buffer, in order of first use, takes the lowest 256-byte boundary where it
 * shares no byte with a buffer of its device placed before it and alive at
 * the same time.
 *
 * Two bugs can be planted at build time, to see Planck's checks catch them:
 *   -DFIRST_FIT_BUG_FLAG      a loop's flag is not taken, so the flag's
 *                             buffer is free while the loop still reads it
 *   -DFIRST_FIT_BUG_ALIGN128  places and sizes on 128-byte boundaries
 */
#include <planck/planner.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FIRST_FIT_BUG_ALIGN128
#define ALIGN 128u
#else
#define ALIGN 256u
#endif

typedef unsigned long long Bytes;

/* ------------------------------------------------------------------ text */

/* A token: a word, one of ( ) { } , =, or a line end; `#` starts a comment. */
typedef struct {
  const char* text;
  size_t len;
} Token;

typedef struct {
  const char* at;
  const char* end;
  Token peeked;
  int has_peeked;
} Lexer;

static int is_punct(char c) { return strchr("(){},=", c) != NULL; }
static int ends_word(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' || is_punct(c); }

static Token next_token(Lexer* lx) {
  Token t = {NULL, 0};
  if (lx->has_peeked) {
    lx->has_peeked = 0;
    return lx->peeked;
  }
  while (lx->at < lx->end && (*lx->at == ' ' || *lx->at == '\t' || *lx->at == '\r')) lx->at++;
  if (lx->at < lx->end && *lx->at == '#') {
    while (lx->at < lx->end && *lx->at != '\n') lx->at++;
  }
  if (lx->at == lx->end) return t; /* the end: text is NULL */
  t.text = lx->at;
  t.len = 1;
  if (*lx->at != '\n' && !is_punct(*lx->at)) {
    while (lx->at + t.len < lx->end && !ends_word(lx->at[t.len])) t.len++;
  }
  lx->at += t.len;
  return t;
}

static Token peek_token(Lexer* lx) {
  if (!lx->has_peeked) {
    lx->peeked = next_token(lx);
    lx->has_peeked = 1;
  }
  return lx->peeked;
}

static int is(Token t, const char* word) { return t.text != NULL && t.len == strlen(word) && memcmp(t.text, word, t.len) == 0; }
static int ends_statement(Token t) { return t.text == NULL || is(t, "\n") || is(t, "}"); }

/* --------------------------------------------------------------- storage */

typedef struct {
  Token name, device;
  Bytes bytes, phase;
  int planned;        /* a buffer, not held, not on a disk */
  long first, last;   /* entries; first is -1 until it is taken */
  Bytes place, size;  /* size: rounded */
} Storage;

typedef struct {
  Storage* items;
  size_t count, cap;
  size_t* slots; /* open addressing by name: index + 1, 0 for empty */
  size_t nslots;
  size_t* order; /* planned buffers in order of first use */
  size_t norder, order_cap;
  char error[256];
} Planner;

static size_t hash(Token t) {
  size_t h = 1469598103934665603u;
  for (size_t i = 0; i < t.len; i++) h = (h ^ (unsigned char)t.text[i]) * 1099511628211u;
  return h;
}

static int same(Token a, Token b) { return a.len == b.len && memcmp(a.text, b.text, a.len) == 0; }

static long find(const Planner* p, Token name) {
  if (p->nslots == 0) return -1;
  for (size_t i = hash(name) & (p->nslots - 1);; i = (i + 1) & (p->nslots - 1)) {
    if (p->slots[i] == 0) return -1;
    if (same(p->items[p->slots[i] - 1].name, name)) return (long)(p->slots[i] - 1);
  }
}

static int fail(Planner* p, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->error, sizeof p->error, fmt, ap);
  va_end(ap);
  return 0;
}

static int rehash(Planner* p) {
  size_t n = p->nslots ? p->nslots * 2 : 64;
  size_t* slots = calloc(n, sizeof *slots);
  if (slots == NULL) return fail(p, "out of memory");
  free(p->slots);
  p->slots = slots;
  p->nslots = n;
  for (size_t k = 0; k < p->count; k++) {
    size_t i = hash(p->items[k].name) & (n - 1);
    while (slots[i] != 0) i = (i + 1) & (n - 1);
    slots[i] = k + 1;
  }
  return 1;
}

/* An array of *cap items of `size` bytes, `count` of them used, with room
 * for one more: the same one, or a larger one; NULL when out of memory. */
static void* make_room(Planner* p, void* items, size_t count, size_t* cap, size_t size) {
  if (count < *cap) return items;
  size_t more = *cap ? *cap * 2 : 64;
  void* grown = realloc(items, more * size);
  if (grown == NULL) {
    fail(p, "out of memory");
    return NULL;
  }
  *cap = more;
  return grown;
}

static int declare(Planner* p, Storage s) {
  Storage* items = make_room(p, p->items, p->count, &p->cap, sizeof *items);
  if (items == NULL) return 0;
  p->items = items;
  p->items[p->count++] = s;
  if (2 * p->count > p->nslots) return rehash(p);
  size_t i = hash(s.name) & (p->nslots - 1);
  while (p->slots[i] != 0) i = (i + 1) & (p->nslots - 1);
  p->slots[i] = p->count;
  return 1;
}

static int parse_bytes(Planner* p, Token t, Bytes* out) {
  Bytes v = 0;
  if (t.text == NULL || t.len == 0) return fail(p, "expected a number");
  for (size_t i = 0; i < t.len; i++) {
    if (t.text[i] < '0' || t.text[i] > '9' || v > (UINT64_MAX - 9) / 10) return fail(p, "bad number %.*s", (int)t.len, t.text);
    v = v * 10 + (Bytes)(t.text[i] - '0');
  }
  *out = v;
  return 1;
}

/* buffer|alloc|param NAME DEVICE DTYPE BYTES [phase=P] [held] */
static int parse_declaration(Planner* p, Lexer* lx, Token kind) {
  Storage s;
  memset(&s, 0, sizeof s);
  s.name = next_token(lx);
  s.device = next_token(lx);
  next_token(lx); /* the dtype */
  if (!parse_bytes(p, next_token(lx), &s.bytes)) return 0;
  int held = 0;
  while (!ends_statement(peek_token(lx))) {
    Token option = next_token(lx);
    if (is(option, "held")) held = 1;
    if (is(option, "phase")) {
      next_token(lx); /* = */
      if (!parse_bytes(p, next_token(lx), &s.phase)) return 0;
    }
  }
  s.planned = is(kind, "buffer") && !held && !(s.device.len >= 4 && memcmp(s.device.text, "DISK", 4) == 0);
  s.first = -1;
  return declare(p, s);
}

/* The storage an argument names or views, through any depth of views; -1
 * with the error set when there is none. */
static long parse_arg(Planner* p, Lexer* lx) {
  int depth = 0;
  Token t = next_token(lx);
  while ((is(t, "shrink") || is(t, "bitcast") || is(t, "after")) && is(peek_token(lx), "(")) {
    next_token(lx);
    depth++;
    t = next_token(lx);
  }
  long k = find(p, t);
  if (k < 0) {
    fail(p, "undeclared storage %.*s", (int)t.len, t.text ? t.text : "");
    return -1;
  }
  while (depth > 0) { /* the views' other arguments and closing parentheses */
    t = next_token(lx);
    if (t.text == NULL) {
      fail(p, "a view is never closed");
      return -1;
    }
    if (is(t, ")")) depth--;
  }
  return k;
}

/* Top-level entry `entry` takes storage k. */
static int take(Planner* p, long k, long entry) {
  Storage* s = &p->items[k];
  if (!s->planned) return 1;
  if (s->first < 0) {
    size_t* order = make_room(p, p->order, p->norder, &p->order_cap, sizeof *order);
    if (order == NULL) return 0;
    p->order = order;
    s->first = entry;
    p->order[p->norder++] = (size_t)k;
  }
  s->last = entry;
  return 1;
}

/* One entry, all of which counts as top-level entry `entry`. */
static int parse_statement(Planner* p, Lexer* lx, Token word, long entry) {
  if (is(word, "kernel") || is(word, "copy")) {
    if (is(word, "kernel")) next_token(lx); /* the kernel's name */
    while (!ends_statement(peek_token(lx))) {
      long k = parse_arg(p, lx);
      if (k < 0 || !take(p, k, entry)) return 0;
    }
    return 1;
  }
  if (!is(word, "range") && !is(word, "loop")) return fail(p, "unknown statement %.*s", (int)word.len, word.text);
  long flag = -1;
  if (is(word, "loop")) {
    next_token(lx); /* flag */
    next_token(lx); /* = */
    if ((flag = parse_arg(p, lx)) < 0) return 0;
  }
  if (!is(next_token(lx), "{")) return fail(p, "expected { to open a loop");
  for (;;) {
    Token t = next_token(lx);
    if (t.text == NULL) return fail(p, "a loop is never closed");
    if (is(t, "}")) break;
    if (is(t, "\n")) continue;
    if (!parse_statement(p, lx, t, entry)) return 0;
  }
#ifndef FIRST_FIT_BUG_FLAG
  /* The loop takes its flag after its body. */
  if (flag >= 0 && !take(p, flag, entry)) return 0;
#endif
  return 1;
}

static int parse(Planner* p, const char* text, size_t len) {
  Lexer lx = {text, text + len, {NULL, 0}, 0};
  long entry = 0;
  for (;;) {
    Token t = next_token(&lx);
    if (t.text == NULL) return 1;
    if (is(t, "\n")) continue;
    if (is(t, "schedule")) {
      next_token(&lx);
    } else if (is(t, "buffer") || is(t, "alloc") || is(t, "param")) {
      if (!parse_declaration(p, &lx, t)) return 0;
    } else if (!parse_statement(p, &lx, t, entry++)) {
      return 0;
    }
  }
}

/* ------------------------------------------------------------- placement */

static int by_place(const void* a, const void* b) {
  const Storage* x = *(const Storage* const*)a;
  const Storage* y = *(const Storage* const*)b;
  return x->place < y->place ? -1 : x->place > y->place;
}

static int place_all(Planner* p) {
  Storage** busy = malloc((p->norder + 1) * sizeof *busy);
  if (busy == NULL) return fail(p, "out of memory");
  for (size_t i = 0; i < p->norder; i++) {
    Storage* b = &p->items[p->order[i]];
    b->size = (b->phase + b->bytes + ALIGN - 1) / ALIGN * ALIGN;
    size_t n = 0;
    for (size_t j = 0; j < i; j++) {
      Storage* o = &p->items[p->order[j]];
      if (o->size > 0 && same(o->device, b->device) && o->first <= b->last && b->first <= o->last) busy[n++] = o;
    }
    qsort(busy, n, sizeof *busy, by_place);
    Bytes at = 0;
    for (size_t j = 0; j < n && at + b->size > busy[j]->place; j++) {
      if (busy[j]->place + busy[j]->size > at) at = busy[j]->place + busy[j]->size;
    }
    if (at > ((Bytes)1 << 62)) {
      free(busy);
      return fail(p, "the arena grows past 2^62 bytes");
    }
    b->place = at;
  }
  free(busy);
  return 1;
}

/* -------------------------------------------------------------- the plan */

typedef struct {
  char* text;
  size_t len, cap;
  int failed;
} Out;

static void put(Out* o, const char* fmt, ...) {
  va_list ap;
  if (o->text == NULL && !o->failed) {
    o->cap = 4096;
    o->text = malloc(o->cap);
    if (o->text == NULL) o->failed = 1;
  }
  while (!o->failed) {
    va_start(ap, fmt);
    int n = vsnprintf(o->text + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0) {
      o->failed = 1;
      return;
    }
    if (o->len + (size_t)n < o->cap) {
      o->len += (size_t)n;
      return;
    }
    size_t cap = (o->cap + (size_t)n) * 2;
    char* text = realloc(o->text, cap);
    if (text == NULL) {
      o->failed = 1;
      return;
    }
    o->text = text;
    o->cap = cap;
  }
}

/* Arena names: arenaK, K the smallest numbers that no storage is named by. */
static unsigned arena_number(const Planner* p, unsigned* next) {
  for (;;) {
    char name[32];
    unsigned k = (*next)++;
    snprintf(name, sizeof name, "arena%u", k);
    Token t = {name, strlen(name)};
    if (find(p, t) < 0) return k;
  }
}

static int write_plan(Planner* p, Out* o) {
  Token* devices = malloc((p->norder + 1) * sizeof *devices);
  unsigned* numbers = malloc((p->norder + 1) * sizeof *numbers);
  size_t* arena_of = malloc((p->norder + 1) * sizeof *arena_of);
  if (devices == NULL || numbers == NULL || arena_of == NULL) {
    free(devices), free(numbers), free(arena_of);
    return fail(p, "out of memory");
  }
  size_t ndevices = 0;
  unsigned next = 0;
  for (size_t i = 0; i < p->norder; i++) {
    const Storage* b = &p->items[p->order[i]];
    size_t d = 0;
    while (d < ndevices && !same(devices[d], b->device)) d++;
    if (d == ndevices) {
      devices[ndevices] = b->device;
      numbers[ndevices++] = arena_number(p, &next);
    }
    arena_of[i] = d;
  }
  put(o, "plan v1\n");
  for (size_t d = 0; d < ndevices; d++) {
    Bytes size = 0;
    for (size_t i = 0; i < p->norder; i++) {
      const Storage* b = &p->items[p->order[i]];
      if (arena_of[i] == d && b->place + b->size > size) size = b->place + b->size;
    }
    put(o, "arena arena%u %.*s %llu\n", numbers[d], (int)devices[d].len, devices[d].text, size);
  }
  for (size_t i = 0; i < p->norder; i++) {
    const Storage* b = &p->items[p->order[i]];
    put(o, "place %.*s arena%u %llu\n", (int)b->name.len, b->name.text, numbers[arena_of[i]], b->place);
  }
  free(devices), free(numbers), free(arena_of);
  return o->failed ? fail(p, "out of memory") : 1;
}

/* ------------------------------------------------------------- the ABI */

int planck_planner_abi_version(void) { return PLANCK_PLANNER_ABI_VERSION; }

/* It reads model v1: `schedule v1` files, every feature of them. */
const char* planck_planner_features(void) { return "v1"; }

int planck_plan(const char* sched, size_t sched_len, char** out, size_t* out_len) {
  Planner p;
  memset(&p, 0, sizeof p);
  Out o = {NULL, 0, 0, 0};
  int ok = parse(&p, sched, sched_len) && place_all(&p) && write_plan(&p, &o);
  free(p.items), free(p.slots), free(p.order);
  if (!ok) {
    free(o.text);
    *out = malloc(strlen(p.error) + 1);
    if (*out != NULL) strcpy(*out, p.error);
    return 1;
  }
  *out = o.text;
  *out_len = o.len;
  return 0;
}

void planck_free(char* p) { free(p); }
