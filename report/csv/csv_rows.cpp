#include "report/csv/csv_rows.hpp"

namespace gpuwcrt {

std::string csv_field(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

namespace {

// "a.b" names row["a"]["b"]: a member of an object-valued field.
const Json* field_at(const Json& row, const std::string& column) {
    const Json* at = &row;
    std::size_t from = 0;
    while (true) {
        const std::size_t dot = column.find('.', from);
        const auto it = at->find(column.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
        if (it == at->end()) return nullptr;
        at = &*it;
        if (dot == std::string::npos) return at;
        if (!at->is_object()) return nullptr;
        from = dot + 1;
    }
}

}  // namespace

std::string csv_from_json(const Json& rows, const std::vector<std::string>& columns) {
    std::string out;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (i) out += ',';
        out += csv_field(columns[i]);
    }
    out += '\n';
    for (const Json& row : rows) {
        for (std::size_t i = 0; i < columns.size(); ++i) {
            if (i) out += ',';
            const Json* cell = field_at(row, columns[i] == "operation" ? std::string("name") : columns[i]);
            // An object (an undecided value's interval) goes out through its dotted columns.
            if (!cell || cell->is_null() || cell->is_object()) continue;
            out += csv_field(cell->is_string() ? cell->get<std::string>() : cell->dump());
        }
        out += '\n';
    }
    return out;
}

}  // namespace gpuwcrt
