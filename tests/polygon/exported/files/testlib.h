// A tiny testlib-compatible subset written for the judge's tests: enough
// for a checker, a validator and a generator (not the real testlib.h).
#pragma once
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
enum TResult { _ok = 0, _wa = 1, _pe = 2, _fail = 3 };
[[noreturn]] inline void quitf(TResult r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "%s ", r == _ok ? "ok" : r == _wa ? "wrong answer" : r == _pe ? "wrong output format" : "FAIL");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::exit(r);
}
struct InStream {
    FILE *f = nullptr;
    TResult bad = _fail;
    bool strict = false;
    void init(FILE *file, TResult onBad, bool isStrict) { f = file; bad = onBad; strict = isStrict; }
    void skip() { if (!strict) { int c; while ((c = std::fgetc(f)) != EOF && std::isspace(c)) {} if (c != EOF) std::ungetc(c, f); } }
    std::string readToken() {
        skip();
        std::string s;
        int c;
        while ((c = std::fgetc(f)) != EOF && !std::isspace(c)) s += char(c);
        if (c != EOF) std::ungetc(c, f);
        if (s.empty()) quitf(bad, "expected a token");
        return s;
    }
    long long readLong(long long lo, long long hi, const char *name = "") {
        std::string s = readToken();
        char *end = nullptr;
        long long v = std::strtoll(s.c_str(), &end, 10);
        if (*end) quitf(bad, "%s: %s is not an integer", name, s.c_str());
        if (v < lo || v > hi) quitf(bad, "%s: %lld is out of range", name, v);
        return v;
    }
    int readInt(int lo, int hi, const char *name = "") { return int(readLong(lo, hi, name)); }
    int readInt() { return readInt(-2147483647 - 1, 2147483647); }
    void readSpace() { if (std::fgetc(f) != ' ') quitf(bad, "expected a space"); }
    void readEoln() { if (std::fgetc(f) != '\n') quitf(bad, "expected an end of line"); }
    void readEof() { skip(); if (std::fgetc(f) != EOF) quitf(bad, "expected the end of the file"); }
    bool seekEof() { skip(); int c = std::fgetc(f); if (c == EOF) return true; std::ungetc(c, f); return false; }
};
inline InStream inf, ouf, ans;
inline std::ofstream tout;
inline void registerTestlibCmd(int argc, char **argv) {
    if (argc < 4) quitf(_fail, "usage: checker input output answer");
    inf.init(std::fopen(argv[1], "r"), _fail, false);
    ouf.init(std::fopen(argv[2], "r"), _pe, false);
    ans.init(std::fopen(argv[3], "r"), _fail, false);
    if (!inf.f || !ouf.f || !ans.f) quitf(_fail, "cannot open the files");
}
struct Validation {
    std::string set, grp;
    std::string testset() const { return set; }
    std::string group() const { return grp; }
};
inline Validation validator;
inline void registerValidation(int argc, char **argv) {
    inf.init(stdin, _fail, true);
    for (int i = 1; i + 1 < argc; i++) {
        if (!std::strcmp(argv[i], "--testset")) validator.set = argv[++i];
        else if (!std::strcmp(argv[i], "--group")) validator.grp = argv[++i];
    }
}
inline void registerInteraction(int argc, char **argv) {
    if (argc < 3) quitf(_fail, "usage: interactor input output");
    inf.init(std::fopen(argv[1], "r"), _fail, false);
    tout.open(argv[2]);
    ouf.init(stdin, _pe, false);
    if (!inf.f || !tout) quitf(_fail, "cannot open the files");
}
struct Random {
    unsigned long long s = 1;
    unsigned long long step() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
    long long next(long long lo, long long hi) { return lo + (long long)(step() % (unsigned long long)(hi - lo + 1)); }
};
inline Random rnd;
inline void registerGen(int argc, char **argv, int) {
    unsigned long long h = 1469598103934665603ull;
    for (int i = 1; i < argc; i++) for (char *p = argv[i]; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    rnd.s = h ? h : 1;
}
