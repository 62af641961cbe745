#pragma once
// A small JSON reader that keeps what the examiner importer needs and nlohmann::json drops:
// the file:line:column of every value and key (for InputError messages), and the literal text
// of every number, so that 0.068093376 is read as exactly 68093376/10^9 (docs/theory/semantics.md §1).
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "model/source_location.hpp"
#include "model/time.hpp"

namespace gpuwcrt {

struct JsonMember;

struct JsonValue {
    enum class Type { null, boolean, number, string, array, object };
    Type type = Type::null;
    bool boolean = false;
    std::string text;                 // a string's content, or a number's literal text
    std::vector<JsonValue> items;     // array elements
    std::vector<JsonMember> members;  // object members in file order (see JsonRepeats)
    SourceLocation where;

    const JsonValue* get(const std::string& key) const;
    const JsonMember* member(const std::string& key) const;
    bool is_object() const { return type == Type::object; }
    bool is_array() const { return type == Type::array; }
    bool is_number() const { return type == Type::number; }
    bool is_string() const { return type == Type::string; }
};

struct JsonMember {
    std::string key;
    SourceLocation key_where;
    JsonValue value;
};

// Which keys an object may repeat (get() then returns the first); any other repeated key is an
// InputError that ends with `refusal_note`, which says how the producer of the file reads it.
struct JsonRepeats {
    std::vector<std::string> allowed;
    std::string refusal_note;
};

// Throws InputError at the offending character for malformed JSON (RFC 8259) and for an
// object with the same key twice (unless `repeats` allows that key).
JsonValue parse_located_json(const std::string& text, const std::string& name, const JsonRepeats& repeats = {});

// Typed access; every failure is an InputError at the value (or the object for a missing key).
const JsonValue& json_required(const JsonValue& object, const std::string& key, const std::string& what);
void json_only_keys(const JsonValue& object, std::initializer_list<const char*> allowed, const std::string& what);
const JsonValue& json_object(const JsonValue& v, const std::string& what);
const JsonValue& json_array(const JsonValue& v, const std::string& what);
std::string json_string(const JsonValue& v, const std::string& what);
Time json_number(const JsonValue& v, const std::string& what);           // exact
std::int64_t json_integer(const JsonValue& v, const std::string& what);  // exact, integral
bool json_boolean(const JsonValue& v, const std::string& what);

}  // namespace gpuwcrt
