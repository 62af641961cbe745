#include "app/integer_options.hpp"

#include "app/parse_error_message.hpp"

namespace gpuwcrt::app {
namespace {

// Checks `value` and rewrites it without leading zeros, so that CLI11 cannot read it as octal.
std::string plain_decimal(std::string& value, bool is_unsigned) {
    const std::string kind = is_unsigned ? "a non-negative integer" : "an integer";
    const bool negative = !value.empty() && value[0] == '-';
    std::string digits = !value.empty() && (value[0] == '-' || value[0] == '+') ? value.substr(1) : value;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return "must be " + kind + " in decimal digits, got " + quoted_value(value);
    digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
    if (negative && digits != "0" && is_unsigned) return "must be " + kind + ", got " + quoted_value(value);
    const std::string int64_max = "9223372036854775807";
    if (digits.size() > int64_max.size() || (digits.size() == int64_max.size() && digits > int64_max))
        return quoted_value(value) + " is out of range";
    value = (negative && digits != "0" ? "-" : "") + digits;
    return {};
}

}  // namespace

void require_decimal_integers(CLI::App& app) {
    for (CLI::Option* opt : app.get_options()) {
        const std::string type = opt->get_type_name();
        const bool is_signed = type.rfind("INT", 0) == 0, is_unsigned = type.rfind("UINT", 0) == 0;
        if (!is_signed && !is_unsigned) continue;
        opt->transform(CLI::Validator([is_unsigned](std::string& v) { return plain_decimal(v, is_unsigned); }, ""));
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) require_decimal_integers(*sub);
}

}  // namespace gpuwcrt::app
