#include "inertia/core/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "inertia/core/error.hpp"
#include "inertia/core/text.hpp"

namespace inertia {

std::optional<double> parse_number(std::string_view text) {
  if (text.empty()) return std::nullopt;
  // from_chars accepts neither a leading '+' nor "inf"/"nan" spelled as YAML does; a '+' is fine.
  if (text.front() == '+') text.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

std::optional<bool> parse_boolean(std::string_view text) {
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  return std::nullopt;
}

double OptionMap::number_in(std::string_view key, double fallback, double low, double high,
                            bool low_open, bool high_open) const {
  if (!has(key)) return fallback;
  const double v = number(key);
  const bool above = low_open ? v > low : v >= low;
  const bool below = high_open ? v < high : v <= high;
  if (!above || !below)
    fail(key, cat("must be in ", low_open ? "(" : "[", low, ", ", high, high_open ? ")" : "]",
                  " (got ", v, ")"));
  return v;
}

std::int64_t OptionMap::integer_in(std::string_view key, std::int64_t fallback, std::int64_t low,
                                   std::int64_t high) const {
  if (!has(key)) return fallback;
  const double v = number(key);
  if (v != std::floor(v) || v < static_cast<double>(low) || v > static_cast<double>(high))
    fail(key, cat("must be an integer between ", low, " and ", high, " (got ", v, ")"));
  return static_cast<std::int64_t>(v);
}

bool OptionList::has(std::string_view key) const {
  return std::any_of(values_.begin(), values_.end(),
                     [&](const auto& kv) { return kv.first == key; });
}

void OptionList::expect_keys(std::initializer_list<std::string_view> allowed) const {
  const std::vector<std::string_view> keys(allowed);
  for (const auto& [key, value] : values_)
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      fail("", cat("unknown key '", key, "'", did_you_mean(key, keys), "; allowed: ", join(keys)));
}

const std::string& OptionList::text(std::string_view key) const {
  for (const auto& [k, v] : values_)
    if (k == key) return v;
  fail(key, "missing");
}

double OptionList::number(std::string_view key) const {
  const auto v = parse_number(text(key));
  if (!v) fail(key, cat("expected a finite number, got '", text(key), "'"));
  return *v;
}

bool OptionList::boolean(std::string_view key) const {
  const auto v = parse_boolean(text(key));
  if (!v) fail(key, cat("expected true or false, got '", text(key), "'"));
  return *v;
}

void OptionList::fail(std::string_view key, const std::string& what) const {
  throw InputError(cat(section_, key.empty() ? "" : ".", key, ": ", what));
}

}  // namespace inertia
