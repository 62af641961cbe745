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

CsvTimes csv_times(std::initializer_list<const char*> down, std::initializer_list<const char*> up,
                   std::initializer_list<const char*> nearest) {
    CsvTimes out;
    for (const char* c : down) out.emplace(c, Rounding::down);
    for (const char* c : up) out.emplace(c, Rounding::up);
    for (const char* c : nearest) out.emplace(c, Rounding::nearest);
    return out;
}

const CsvTimes bound_csv_times =
    csv_times({"wcrt", "lower_bound", "response", "margin", "tx2_response", "rta_max_over_orders.lower", "excess"},
              {"upper_bound", "busy_time_bound", "rta_file_order", "rta_max_over_orders", "rta_max_over_orders.upper",
               "rta_max_upper_bound"},
              {"deadline", "bound"});

const CsvTimes schedule_csv_times = csv_times({}, {}, {"release", "issue", "start", "finish", "response", "deadline"});

namespace {

// A time column's text: the JSON's exact string with exact times, else a decimal.
std::string time_field(const std::string& exact, Rounding rounding) {
    if (exact_times()) return exact;
    const std::optional<Time> t = parse_time(exact);
    return t ? time_text(*t, rounding).text : exact;
}

}  // namespace

std::string csv_from_json(const Json& rows, const std::vector<std::string>& columns, const CsvTimes& times) {
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
            const auto time = times.find(columns[i]);
            if (cell->is_string() && time != times.end())
                out += csv_field(time_field(cell->get<std::string>(), time->second));
            else out += csv_field(cell->is_string() ? cell->get<std::string>() : cell->dump());
        }
        out += '\n';
    }
    return out;
}

}  // namespace gpuwcrt
