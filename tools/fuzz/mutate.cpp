#include "mutate.hpp"

#include <iterator>
#include <cctype>
#include <functional>
#include <string_view>

namespace gpuwcrt::fuzz {
namespace {

struct Span {
    std::size_t begin, end;  // [begin, end)
};

// Values that probe range checks, casts, products and number parsing: 2^31, 2^32 + 2, 2^63 - 1,
// 2^64, exponents out of any range, non-numbers and values of other types.
// clang-format off
constexpr std::string_view interesting_values[] = {
    "0", "-1", "1", "2", "-0", "0.0", "0.5", "3", "7", "32", "1024", "1025", "2048", "65536",
    "100000", "1000000", "1000000000", "2147483647", "2147483648", "-2147483649", "4294967295",
    "4294967296", "4294967298", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "18446744073709551616", "4611686018427387904", "1e999999",
    "1e-999999", "1e308", "1e-308", "5e-324", "nan", "inf", "-inf", "1/0", "\"1/0\"", "\"0/0\"",
    "\"1e999999\"", "\"1e-999999\"", "\"-1\"",
    "123456789012345678901234567890123456789.000000000000000000000000000000001",
    "0.000000000000000000000000000001", "0x7fffffffffffffff", "1_000_000", "true", "\"\"", "[]",
    "{}", "[1, 2]", "\"1/3\"", "\"3/0\"", "\"-0.5\"", "1e3", "[0, 1]", "[\"1/0\", 1]", "[1, 0]",
    "\"99999999999999999999/3\"", "{ at = 0 }"};

// String contents (inserted between existing quotes): empty, separators of --order/--bound,
// control characters and ANSI escapes (as escapes, so the parsers accept them), markup, names
// that collide, very long names and the examiner's benchmark library names.
std::vector<std::string> interesting_strings() {
    return {"", ",", "=", "a,b", "a=b", " K1", "K1 ", "\\u0001", "\\u001b[31mred\\u001b[0m", "\\u0000",
            "\\t", "\\n", "\\r", "<svg>&amp;\\\"'", "\xce\xa9", "\\ud800", "\\u202e", "K1", "K2", "t1",
            "S1", "NULL", "Kernel 1", std::string(100000, 'A'), std::string(300, 'x'), "1/0", "1e999999",
            "nan", "-1", "0", "2147483648", "18446744073709551616", "../out", "/dev/null",
            "./bin/multikernel.so", "./bin/timer_spin.so", "./bin/sharedmem_timer_spin.so",
            "./bin/timer_spin_default_stream.so", "after_stream_idle", "most-room"};
}

// Raw fragments for byte insertion: structure characters, invalid UTF-8, a NUL, headers.
constexpr std::string_view interesting_bytes[] = {
    "\n", "[", "]", "{", "}", "\"", "'", "=", ",", "#", "\\", std::string_view("\0", 1), "\xff", "\xc3",
    "\xe2\x80\xae", "\x1b[2J", "\r\n", "[[kernel]]\n", "[platform]\n", "[[stream]]\n", "\t", ":"};
// clang-format on

std::vector<Span> lines_of(const std::string& s) {
    std::vector<Span> out;
    std::size_t b = 0;
    while (b < s.size()) {
        std::size_t e = s.find('\n', b);
        e = e == std::string::npos ? s.size() : e + 1;
        out.push_back({b, e});
        b = e;
    }
    return out;
}

bool comment_line(const std::string& s, std::size_t pos) {
    std::size_t b = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    b = b == std::string::npos ? 0 : b + 1;
    while (b < pos && (s[b] == ' ' || s[b] == '\t')) ++b;
    return b < s.size() && s[b] == '#';
}

// Digit runs with sign, fraction and exponent, outside comment lines.
std::vector<Span> number_tokens(const std::string& s) {
    std::vector<Span> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const bool starts = std::isdigit(static_cast<unsigned char>(s[i])) &&
                            (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'));
        if (!starts) {
            ++i;
            continue;
        }
        std::size_t b = (i > 0 && (s[i - 1] == '-' || s[i - 1] == '+')) ? i - 1 : i;
        std::size_t e = i;
        while (e < s.size() && (std::isdigit(static_cast<unsigned char>(s[e])) || s[e] == '.' || s[e] == '_')) ++e;
        if (e < s.size() && (s[e] == 'e' || s[e] == 'E')) {
            std::size_t x = e + 1;
            if (x < s.size() && (s[x] == '-' || s[x] == '+')) ++x;
            if (x < s.size() && std::isdigit(static_cast<unsigned char>(s[x]))) {
                e = x;
                while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
            }
        }
        if (!comment_line(s, b)) out.push_back({b, e});
        i = e;
    }
    return out;
}

// Contents of double-quoted strings (backslash escapes honoured), outside comment lines.
std::vector<Span> string_tokens(const std::string& s) {
    std::vector<Span> out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (s[i] == '#' && comment_line(s, i)) {
            i = s.find('\n', i);
            if (i == std::string::npos) break;
            continue;
        }
        if (s[i] != '"') {
            ++i;
            continue;
        }
        std::size_t e = i + 1;
        while (e < s.size() && s[e] != '"' && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
        if (e >= s.size() || s[e] != '"') break;
        out.push_back({i + 1, e});
        i = e + 1;
    }
    return out;
}

// End of the JSON value starting at `b` (a string, or balanced brackets up to , } ] at depth 0).
std::size_t json_value_end(const std::string& s, std::size_t b) {
    int depth = 0;
    std::size_t i = b;
    while (i < s.size()) {
        const char c = s[i];
        if (c == '"') {
            ++i;
            while (i < s.size() && s[i] != '"') i += s[i] == '\\' ? 2 : 1;
            ++i;
            if (depth == 0) return std::min(i, s.size());
            continue;
        }
        if (c == '{' || c == '[') ++depth;
        else if (c == '}' || c == ']') {
            if (depth == 0) return i;
            if (--depth == 0) return i + 1;
        } else if (c == ',' && depth == 0) return i;
        ++i;
    }
    return s.size();
}

std::string show(std::string_view v) {
    std::string out;
    for (char c : v.substr(0, 40)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x7f || c == '\\') {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else out += c;
    }
    if (v.size() > 40) out += "...(" + std::to_string(v.size()) + " bytes)";
    return out;
}

using Op = std::function<std::string(std::string&, Rng&, const Corpus&, Format)>;

std::string flip_bit(std::string& s, Rng& rng, const Corpus&, Format) {
    if (s.empty()) return "flip: empty";
    const std::size_t p = pick_index(rng, s.size());
    const int bit = static_cast<int>(pick(rng, 0, 7));
    s[p] = static_cast<char>(static_cast<unsigned char>(s[p]) ^ (1u << bit));
    return "flip bit " + std::to_string(bit) + " at byte " + std::to_string(p);
}

std::string insert_bytes(std::string& s, Rng& rng, const Corpus&, Format) {
    const std::size_t p = pick_index(rng, s.size() + 1);
    std::string frag = one_in(rng, 3) ? std::string(1, static_cast<char>(pick(rng, 0, 255)))
                                      : std::string(interesting_bytes[pick_index(rng, std::size(interesting_bytes))]);
    s.insert(p, frag);
    return "insert '" + show(frag) + "' at byte " + std::to_string(p);
}

std::string delete_bytes(std::string& s, Rng& rng, const Corpus&, Format) {
    if (s.empty()) return "delete: empty";
    const std::size_t p = pick_index(rng, s.size());
    const std::size_t n = std::min<std::size_t>(pick(rng, 1, 16), s.size() - p);
    s.erase(p, n);
    return "delete " + std::to_string(n) + " bytes at " + std::to_string(p);
}

std::string line_op(std::string& s, Rng& rng, const Corpus&, Format) {
    const auto ls = lines_of(s);
    if (ls.size() < 2) return "line op: too few lines";
    const std::size_t a = pick_index(rng, ls.size()), b = pick_index(rng, ls.size());
    std::string la = s.substr(ls[a].begin, ls[a].end - ls[a].begin);
    if (!la.empty() && la.back() != '\n') la += '\n';
    switch (pick(rng, 0, 2)) {
        case 0:
            s.insert(ls[a].begin, la);
            return "duplicate line " + std::to_string(a + 1);
        case 1:
            s.erase(ls[a].begin, ls[a].end - ls[a].begin);
            return "delete line " + std::to_string(a + 1);
        default: {
            if (a == b) return "swap line with itself";
            const Span lo = ls[std::min(a, b)], hi = ls[std::max(a, b)];
            std::string l1 = s.substr(lo.begin, lo.end - lo.begin), l2 = s.substr(hi.begin, hi.end - hi.begin);
            if (!l2.empty() && l2.back() != '\n') {
                l2 += '\n';
                l1.pop_back();
            }
            s.replace(hi.begin, hi.end - hi.begin, l1);
            s.replace(lo.begin, lo.end - lo.begin, l2);
            return "swap lines " + std::to_string(a + 1) + " and " + std::to_string(b + 1);
        }
    }
}

std::string replace_number(std::string& s, Rng& rng, const Corpus&, Format) {
    const auto ts = number_tokens(s);
    if (ts.empty()) return "number: none";
    const Span t = ts[pick_index(rng, ts.size())];
    const std::string old = s.substr(t.begin, t.end - t.begin);
    std::string v;
    if (one_in(rng, 4)) v = old + std::string(pick(rng, 1, 7), '0');  // large but valid: must still end in time
    else v = std::string(interesting_values[pick_index(rng, std::size(interesting_values))]);
    s.replace(t.begin, t.end - t.begin, v);
    return "number '" + show(old) + "' -> '" + show(v) + "'";
}

std::string replace_string(std::string& s, Rng& rng, const Corpus&, Format) {
    const auto ts = string_tokens(s);
    if (ts.empty()) return "string: none";
    const Span t = ts[pick_index(rng, ts.size())];
    static const std::vector<std::string> strings = interesting_strings();
    const std::string old = s.substr(t.begin, t.end - t.begin);
    const std::string& v = strings[pick_index(rng, strings.size())];
    s.replace(t.begin, t.end - t.begin, v);
    return "string \"" + show(old) + "\" -> \"" + show(v) + "\"";
}

// TOML: copy a [table] or [[array]] section (header to the next header); JSON: copy an object
// that is an array element next to itself.
std::string duplicate_table(std::string& s, Rng& rng, const Corpus&, Format f) {
    if (f == Format::toml) {
        const auto ls = lines_of(s);
        std::vector<std::size_t> headers;
        for (std::size_t i = 0; i < ls.size(); ++i)
            if (s[ls[i].begin] == '[') headers.push_back(i);
        if (headers.empty()) return "table: none";
        const std::size_t h = pick_index(rng, headers.size());
        const std::size_t b = ls[headers[h]].begin;
        const std::size_t e = h + 1 < headers.size() ? ls[headers[h + 1]].begin : s.size();
        std::string block = s.substr(b, e - b);
        if (!block.empty() && block.back() != '\n') block += '\n';
        std::size_t at = e;
        if (at == s.size() && !s.empty() && s.back() != '\n') {
            s += '\n';
            at = s.size();
        }
        s.insert(at, block);
        return "duplicate table at line " + std::to_string(headers[h] + 1);
    }
    std::vector<std::size_t> objects;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '{') continue;
        std::size_t p = i;
        while (p > 0 && std::isspace(static_cast<unsigned char>(s[p - 1]))) --p;
        if (p > 0 && (s[p - 1] == '[' || s[p - 1] == ',')) objects.push_back(i);
    }
    if (objects.empty()) return "object: none";
    const std::size_t b = objects[pick_index(rng, objects.size())];
    const std::size_t e = json_value_end(s, b);
    s.insert(e, ", " + s.substr(b, e - b));
    return "duplicate JSON object at byte " + std::to_string(b);
}

// TOML: delete a `key = value` line; JSON: delete a `"key": value` member and its comma.
std::string drop_key(std::string& s, Rng& rng, const Corpus&, Format f) {
    if (f == Format::toml) {
        std::vector<Span> keys;
        for (const Span l : lines_of(s)) {
            const std::string_view line(s.data() + l.begin, l.end - l.begin);
            const std::size_t eq = line.find('=');
            if (eq != std::string_view::npos && line[0] != '#' && line[0] != '[' &&
                line.substr(0, eq).find('"') == std::string_view::npos)
                keys.push_back(l);
        }
        if (keys.empty()) return "key: none";
        const Span k = keys[pick_index(rng, keys.size())];
        const std::string line = s.substr(k.begin, k.end - k.begin);
        s.erase(k.begin, k.end - k.begin);
        return "drop key line '" + show(line.substr(0, line.find('='))) + "'";
    }
    std::vector<Span> members;
    for (const Span t : string_tokens(s)) {
        std::size_t c = t.end + 1;
        while (c < s.size() && std::isspace(static_cast<unsigned char>(s[c]))) ++c;
        if (c >= s.size() || s[c] != ':') continue;
        std::size_t v = c + 1;
        while (v < s.size() && std::isspace(static_cast<unsigned char>(s[v]))) ++v;
        members.push_back({t.begin - 1, json_value_end(s, v)});
    }
    if (members.empty()) return "member: none";
    Span m = members[pick_index(rng, members.size())];
    const std::string key = s.substr(m.begin, s.find(':', m.begin) - m.begin);
    std::size_t after = m.end;
    while (after < s.size() && std::isspace(static_cast<unsigned char>(s[after]))) ++after;
    if (after < s.size() && s[after] == ',') m.end = after + 1;  // keep the JSON valid when we can
    s.erase(m.begin, m.end - m.begin);
    return "drop member " + show(key);
}

// TOML: repeat a `key = value` line right after itself (a duplicate key).
std::string duplicate_key(std::string& s, Rng& rng, const Corpus& c, Format f) {
    const auto ls = lines_of(s);
    std::vector<Span> keys;
    for (const Span l : ls)
        if (s.find('=', l.begin) < l.end && s[l.begin] != '#') keys.push_back(l);
    if (keys.empty() || f == Format::json) return line_op(s, rng, c, f);
    const Span k = keys[pick_index(rng, keys.size())];
    std::string line = s.substr(k.begin, k.end - k.begin);
    if (line.back() != '\n') line += '\n';
    s.insert(k.end, line);
    return "duplicate key line '" + show(line.substr(0, line.find('='))) + "'";
}

// Keys of the input formats that the seeds rarely or never use (no seed has a [platform] or
// registers), so that their range checks are reached too.
// clang-format off
constexpr std::string_view platform_keys[] = {"sms", "threads_per_sm", "shared_mem_per_sm", "shared_mem_per_block_max",
                                               "registers_per_sm", "registers_per_block_max", "blocks_per_sm_max",
                                               "threads_per_block_max", "copy_engines"};
constexpr std::string_view operation_keys[] = {"registers", "shared_mem", "deadline", "issue", "block_time", "blocks",
                                               "threads", "priority", "stream", "after_stream_idle", "name", "duration"};
constexpr std::string_view examiner_keys[] = {"thread_count", "block_count", "additional_info", "data_size",
                                              "release_time", "stream_priority", "shared_memory_size", "duration",
                                              "copy_in_count", "copy_out_count", "delay", "kernel_label", "label",
                                              "filename", "max_iterations", "cpu_core", "benchmarks"};
constexpr std::string_view plausible_values[] = {"0", "1", "2", "4", "32", "256", "1024", "2048", "32768", "65536"};
// clang-format on

std::string some_value(Rng& rng) {
    return std::string(one_in(rng, 2) ? plausible_values[pick_index(rng, std::size(plausible_values))]
                                      : interesting_values[pick_index(rng, std::size(interesting_values))]);
}

std::vector<std::string> names_in(const std::string& s) {
    std::vector<std::string> out;
    for (std::size_t p = 0; (p = s.find("name = \"", p)) != std::string::npos;) {
        p += 8;
        const std::size_t e = s.find('"', p);
        if (e == std::string::npos) break;
        out.push_back(s.substr(p, e - p));
    }
    return out;
}

std::string inject_key(std::string& s, Rng& rng, const Corpus&, Format f) {
    std::string added;
    if (f == Format::json) {
        std::vector<std::size_t> objects;
        for (std::size_t i = 0; i < s.size(); ++i)
            if (s[i] == '{') objects.push_back(i);
        if (objects.empty()) return "inject: no object";
        const std::size_t at = objects[pick_index(rng, objects.size())] + 1;
        added = "\"" + std::string(examiner_keys[pick_index(rng, std::size(examiner_keys))]) +
                "\": " + some_value(rng) + ", ";
        s.insert(at, added);
        return "inject member '" + show(added) + "'";
    }
    if (!s.empty() && s.back() != '\n') s += '\n';
    switch (pick(rng, 0, 2)) {
        case 0: {  // a [platform] table
            added = "[platform]\n";
            for (std::uint64_t k = pick(rng, 1, 3); k > 0; --k)
                added += std::string(platform_keys[pick_index(rng, std::size(platform_keys))]) + " = " +
                         some_value(rng) + "\n";
            s += added;
            break;
        }
        case 1: {  // a key in some [[kernel]] or [[copy]], replacing the line when the key is there
            const auto ls = lines_of(s);
            std::vector<std::size_t> headers;
            for (std::size_t i = 0; i < ls.size(); ++i)
                if (s.compare(ls[i].begin, 10, "[[kernel]]") == 0 || s.compare(ls[i].begin, 8, "[[copy]]") == 0)
                    headers.push_back(i);
            if (headers.empty()) return "inject: no operation";
            const std::string key(operation_keys[pick_index(rng, std::size(operation_keys))]);
            added = key + " = " + some_value(rng) + "\n";
            std::size_t i = headers[pick_index(rng, headers.size())];
            Span at{ls[i].end, ls[i].end};
            for (++i; i < ls.size() && s[ls[i].begin] != '['; ++i)
                if (s.compare(ls[i].begin, key.size() + 2, key + " =") == 0) at = ls[i];
            s.replace(at.begin, at.end - at.begin, added);
            break;
        }
        default: {  // a [scenario] over the file's own names, possibly repeated or incomplete
            const auto names = names_in(s);
            if (names.empty()) return "inject: no names";
            added = "[scenario]\n";
            if (one_in(rng, 2)) {
                added += "order = [";
                for (std::uint64_t k = pick(rng, 0, names.size() + 1); k > 0; --k)
                    added += "\"" + names[pick_index(rng, names.size())] + "\"" + (k > 1 ? ", " : "");
                added += "]\n";
            }
            if (one_in(rng, 3))
                added += one_in(rng, 2) ? "policy = \"first-fit\"\n" : "policy = \"" + some_value(rng) + "\"\n";
            if (one_in(rng, 2)) {
                added += "sm = { \"" + names[pick_index(rng, names.size())] + "\" = [";
                for (std::uint64_t k = pick(rng, 0, 4); k > 0; --k)
                    added += (one_in(rng, 4) ? some_value(rng) : std::to_string(pick(rng, 0, 2))) + (k > 1 ? ", " : "");
                added += "] }\n";
            }
            s += added;
        }
    }
    return "inject '" + show(added) + "'";
}

// The head of this text up to a line boundary, then the tail of another seed from one.
std::string splice(std::string& s, Rng& rng, const Corpus& c, Format f) {
    const auto& pool = one_in(rng, 8) ? c.of(f == Format::toml ? Format::json : Format::toml) : c.of(f);
    const SeedFile& other = pool[pick_index(rng, pool.size())];
    const auto la = lines_of(s), lb = lines_of(other.text);
    const std::size_t cut_a = la.empty() ? 0 : la[pick_index(rng, la.size())].end;
    const std::size_t cut_b = lb.empty() ? 0 : lb[pick_index(rng, lb.size())].begin;
    s = s.substr(0, cut_a) + other.text.substr(cut_b);
    return "splice at byte " + std::to_string(cut_a) + " with " + other.path + " from byte " + std::to_string(cut_b);
}

struct Weighted {
    Op op;
    unsigned weight;
};

const std::vector<Weighted>& operators() {
    static const std::vector<Weighted> ops = {{flip_bit, 2},        {insert_bytes, 2},   {delete_bytes, 2},
                                              {line_op, 3},         {replace_number, 8}, {replace_string, 5},
                                              {duplicate_table, 2}, {drop_key, 3},       {duplicate_key, 1},
                                              {splice, 2},          {inject_key, 5}};
    return ops;
}

}  // namespace

Mutant make_mutant(const Corpus& corpus, Format f, Rng& rng) {
    const Format from = one_in(rng, 50) ? (f == Format::toml ? Format::json : Format::toml) : f;
    const auto& pool = corpus.of(from);
    const SeedFile& seed = pool[pick_index(rng, pool.size())];
    Mutant m{seed.text, {"seed " + seed.path}};
    // One run in 20 keeps the seed unchanged: the bundled inputs themselves must pass too.
    // Mostly one or two steps: a stack of many mostly fails the parser and tests little else.
    std::size_t steps = one_in(rng, 20) ? 0 : 1;
    while (steps > 0 && steps < 4 && one_in(rng, 2)) ++steps;
    unsigned total = 0;
    for (const auto& w : operators()) total += w.weight;
    for (std::size_t i = 0; i < steps; ++i) {
        std::uint64_t r = pick(rng, 0, total - 1);
        for (const auto& w : operators()) {
            if (r < w.weight) {
                m.steps.push_back(w.op(m.text, rng, corpus, f));
                break;
            }
            r -= w.weight;
        }
    }
    return m;
}

}  // namespace gpuwcrt::fuzz
