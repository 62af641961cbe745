#include "model/io/located_json.hpp"

#include "model/name_policy.hpp"

#include <cctype>
#include <limits>

namespace gpuwcrt {
namespace {

class Parser {
public:
    Parser(const std::string& text, const std::string& name, const JsonRepeats& repeats)
        : s_(text), name_(name), repeats_(repeats) {}

    JsonValue document() {
        skip_space();
        JsonValue v = value(0);
        skip_space();
        if (i_ < s_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    static constexpr int max_depth = 200;

    SourceLocation here() const { return {name_, line_, column_}; }
    [[noreturn]] void fail(const std::string& message) const {
        throw InputError(here(), "JSON syntax error: " + message);
    }
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    bool at_end() const { return i_ >= s_.size(); }

    void advance() {
        const unsigned char c = static_cast<unsigned char>(s_[i_++]);
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((c & 0xC0) != 0x80) {  // columns count characters, not UTF-8 continuation bytes
            ++column_;
        }
    }
    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
    }
    void expect(char c, const char* what) {
        if (peek() != c) fail(std::string("expected ") + what + describe_here());
        advance();
    }
    std::string describe_here() const {
        if (at_end()) return " but the text ended";
        const unsigned char c = static_cast<unsigned char>(peek());
        if (std::isprint(c)) return std::string(" but found '") + static_cast<char>(c) + "'";
        return " but found byte " + std::to_string(c);
    }

    JsonValue value(int depth) {
        if (depth > max_depth) fail("nesting deeper than 200 levels");
        JsonValue v;
        v.where = here();
        switch (peek()) {
            case '{':
                object(v, depth);
                break;
            case '[':
                array(v, depth);
                break;
            case '"':
                v.type = JsonValue::Type::string;
                v.text = string_literal();
                break;
            case 't':
                word("true", v);
                v.type = JsonValue::Type::boolean;
                v.boolean = true;
                break;
            case 'f':
                word("false", v);
                v.type = JsonValue::Type::boolean;
                break;
            case 'n':
                word("null", v);
                v.type = JsonValue::Type::null;
                break;
            default:
                if (peek() == '-' || std::isdigit(static_cast<unsigned char>(peek()))) {
                    v.type = JsonValue::Type::number;
                    v.text = number_literal();
                } else {
                    fail("expected a value" + describe_here());
                }
        }
        return v;
    }

    void word(const char* w, JsonValue&) {
        for (const char* p = w; *p; ++p) {
            if (peek() != *p) fail(std::string("expected '") + w + "'" + describe_here());
            advance();
        }
    }

    void check_repeat(const JsonValue& v, const JsonMember& m) const {
        for (const std::string& a : repeats_.allowed)
            if (a == m.key) return;
        for (const JsonMember& other : v.members)
            if (other.key == m.key)
                throw InputError(m.key_where, "key " + quoted_name(m.key) + " appears twice in this object (first at " +
                                                  other.key_where.str() + ")" + repeats_.refusal_note);
    }

    void object(JsonValue& v, int depth) {
        v.type = JsonValue::Type::object;
        advance();
        skip_space();
        if (peek() == '}') {
            advance();
            return;
        }
        for (;;) {
            skip_space();
            JsonMember m;
            m.key_where = here();
            if (peek() != '"') fail("expected a quoted key (\"key\")" + describe_here());
            m.key = string_literal();
            check_repeat(v, m);
            skip_space();
            expect(':', "':' after the key");
            skip_space();
            m.value = value(depth + 1);
            v.members.push_back(std::move(m));
            skip_space();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == '}') {
                advance();
                return;
            }
            fail("expected ',' or '}' in an object" + describe_here());
        }
    }

    void array(JsonValue& v, int depth) {
        v.type = JsonValue::Type::array;
        advance();
        skip_space();
        if (peek() == ']') {
            advance();
            return;
        }
        for (;;) {
            skip_space();
            v.items.push_back(value(depth + 1));
            skip_space();
            if (peek() == ',') {
                advance();
                continue;
            }
            if (peek() == ']') {
                advance();
                return;
            }
            fail("expected ',' or ']' in an array" + describe_here());
        }
    }

    void append_utf8(std::string& out, unsigned long cp) {
        if (cp < 0x80) out.push_back(static_cast<char>(cp));
        else if (cp < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else if (cp < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }

    unsigned long hex4() {
        unsigned long cp = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = peek();
            if (!std::isxdigit(static_cast<unsigned char>(c)))
                fail("expected 4 hex digits after \\u" + describe_here());
            cp = cp * 16 + static_cast<unsigned long>(std::isdigit(static_cast<unsigned char>(c))
                                                          ? c - '0'
                                                          : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
            advance();
        }
        return cp;
    }

    std::string string_literal() {
        advance();  // opening quote
        std::string out;
        for (;;) {
            if (at_end()) fail("unterminated string");
            const char c = peek();
            if (c == '"') {
                advance();
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string (write it as an escape)");
            if (c != '\\') {
                out.push_back(c);
                advance();
                continue;
            }
            advance();
            const char e = peek();
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    out.push_back(e);
                    advance();
                    break;
                case 'b':
                    out.push_back('\b');
                    advance();
                    break;
                case 'f':
                    out.push_back('\f');
                    advance();
                    break;
                case 'n':
                    out.push_back('\n');
                    advance();
                    break;
                case 'r':
                    out.push_back('\r');
                    advance();
                    break;
                case 't':
                    out.push_back('\t');
                    advance();
                    break;
                case 'u': {
                    advance();
                    unsigned long cp = hex4();
                    if (cp >= 0xD800 && cp < 0xDC00 && peek() == '\\') {
                        advance();
                        expect('u', "a low surrogate \\u escape");
                        const unsigned long low = hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("invalid UTF-16 surrogate pair");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    }
                    append_utf8(out, cp);
                    break;
                }
                default:
                    fail("invalid escape in a string" + describe_here());
            }
        }
    }

    std::string number_literal() {
        const std::size_t start = i_;
        if (peek() == '-') advance();
        if (peek() == '0') {
            advance();
        } else if (std::isdigit(static_cast<unsigned char>(peek()))) {
            while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
        } else {
            fail("expected a digit" + describe_here());
        }
        if (peek() == '.') {
            advance();
            if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected a digit after '.'" + describe_here());
            while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
        }
        if (peek() == 'e' || peek() == 'E') {
            advance();
            if (peek() == '+' || peek() == '-') advance();
            if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("expected an exponent digit" + describe_here());
            while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
        }
        return s_.substr(start, i_ - start);
    }

    const std::string& s_;
    const std::string& name_;
    const JsonRepeats& repeats_;
    std::size_t i_ = 0;
    int line_ = 1, column_ = 1;
};

const char* type_name(JsonValue::Type t) {
    switch (t) {
        case JsonValue::Type::null:
            return "null";
        case JsonValue::Type::boolean:
            return "a boolean";
        case JsonValue::Type::number:
            return "a number";
        case JsonValue::Type::string:
            return "a string";
        case JsonValue::Type::array:
            return "an array";
        case JsonValue::Type::object:
            return "an object";
    }
    return "?";
}

[[noreturn]] void wrong_type(const JsonValue& v, const std::string& what, const char* wanted) {
    throw InputError(v.where, what + " must be " + wanted + ", not " + type_name(v.type));
}

}  // namespace

const JsonMember* JsonValue::member(const std::string& key) const {
    for (const JsonMember& m : members)
        if (m.key == key) return &m;
    return nullptr;
}

const JsonValue* JsonValue::get(const std::string& key) const {
    const JsonMember* m = member(key);
    return m ? &m->value : nullptr;
}

JsonValue parse_located_json(const std::string& text, const std::string& name, const JsonRepeats& repeats) {
    return Parser(text, name, repeats).document();
}

const JsonValue& json_required(const JsonValue& object, const std::string& key, const std::string& what) {
    if (const JsonValue* v = object.get(key)) return *v;
    throw InputError(object.where, what + " lacks the required key '" + key + "'");
}

void json_only_keys(const JsonValue& object, std::initializer_list<const char*> allowed, const std::string& what) {
    for (const JsonMember& m : object.members) {
        bool ok = false;
        for (const char* a : allowed) ok = ok || m.key == a;
        if (ok) continue;
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        throw InputError(m.key_where, "unknown key " + quoted_name(m.key) + " in " + what + " (allowed: " + list + ")");
    }
}

const JsonValue& json_object(const JsonValue& v, const std::string& what) {
    if (!v.is_object()) wrong_type(v, what, "an object");
    return v;
}

const JsonValue& json_array(const JsonValue& v, const std::string& what) {
    if (!v.is_array()) wrong_type(v, what, "an array");
    return v;
}

std::string json_string(const JsonValue& v, const std::string& what) {
    if (!v.is_string()) wrong_type(v, what, "a string");
    return v.text;
}

Time json_number(const JsonValue& v, const std::string& what) {
    if (!v.is_number()) wrong_type(v, what, "a number");
    const TimeLiteral t = read_time_literal(v.text);
    if (t.value) return *t.value;
    // A literal of thousands of digits is shown by its beginning.
    throw InputError(v.where, what + ": the number " + (v.text.size() > 60 ? v.text.substr(0, 57) + "..." : v.text) +
                                  " " + t.problem);
}

std::int64_t json_integer(const JsonValue& v, const std::string& what) {
    const Time t = json_number(v, what);
    if (boost::multiprecision::denominator(t) != 1)
        throw InputError(v.where, what + " must be a whole number, not " + v.text);
    const BigInt& n = boost::multiprecision::numerator(t);
    if (n > std::numeric_limits<std::int64_t>::max() || n < std::numeric_limits<std::int64_t>::min())
        throw InputError(v.where, what + " is out of range: " + v.text);
    return static_cast<std::int64_t>(n);
}

bool json_boolean(const JsonValue& v, const std::string& what) {
    if (v.type != JsonValue::Type::boolean) wrong_type(v, what, "true or false");
    return v.boolean;
}

}  // namespace gpuwcrt
