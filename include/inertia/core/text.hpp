#pragma once
/// \file text.hpp
/// Small text helpers for messages: edit distance and did-you-mean hints, printable excerpts.

#include <span>
#include <string>
#include <string_view>

namespace inertia {

/// Levenshtein distance between a and b.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// " (did you mean 'x'?)" for the closest candidate within a small edit distance, else "".
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

/// `text` fit for a one-line message: control characters as C escapes ("\n", "\x1b"); other
/// bytes (UTF-8 names) as they are.
std::string printable(std::string_view text);

/// At most about `limit` characters of `text` for a message, printable(): a longer text is cut
/// (not inside a UTF-8 character) and ends with "... (N bytes)", so that a 5 MB bad value does
/// not become a 5 MB error line.
std::string excerpt(std::string_view text, std::size_t limit = 80);

/// x with 3 significant digits ("%.3g"), for messages.
std::string g3(double x);

/// x as the log prints it, 6 significant digits (an ostream's default; cat() gives 10).
std::string six(double x);

/// "a, b, c" for messages.
std::string join(std::span<const std::string_view> words, std::string_view separator = ", ");

}  // namespace inertia
