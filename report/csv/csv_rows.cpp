#include "report/csv/csv_rows.hpp"

namespace gpuwcrt {

std::string csv_field(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string out = "\"";
    for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

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
            const auto it = row.find(columns[i] == "operation" ? std::string("name") : columns[i]);
            if (it == row.end() || it->is_null()) continue;
            out += csv_field(it->is_string() ? it->get<std::string>() : it->dump());
        }
        out += '\n';
    }
    return out;
}

}  // namespace gpuwcrt
