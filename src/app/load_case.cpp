// The case file and its amplitude files read once, on rank 0, and broadcast: every rank parses
// the same text (the same errors at the same place), and a table's points travel as numbers,
// so no rank holds an amplitude file's text or more than one copy of its table.

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <fstream>
#include <sstream>

#include "inertia/app/case_file.hpp"
#include "inertia/core/text.hpp"
#include "inertia/parallel/session.hpp"

namespace inertia {

namespace {

/// What rank 0's read gave: a table, a file that cannot be opened, or bad content.
enum class ReadOutcome : int { table = 0, unreadable = 1, bad_content = 2, failed = 3 };

/// Collective. Rank 0 reads the table; the others receive it, or the same error.
AmplitudeTable read_table_on_root(MPI_Comm comm, const std::filesystem::path& path,
                                  RecordFormat format, double dt, std::string_view abscissa) {
  AmplitudeTable table;
  int outcome = static_cast<int>(ReadOutcome::table);
  std::string message;
  if (rank_of(comm) == 0) {
    try {
      table = read_record(path, format, dt, abscissa);
    } catch (const AmplitudeFileUnreadable& e) {
      outcome = static_cast<int>(ReadOutcome::unreadable);
      message = e.what();
    } catch (const InputError& e) {
      outcome = static_cast<int>(ReadOutcome::bad_content);
      message = e.what();
    } catch (const std::exception& e) {  // std::bad_alloc, say: the other ranks must not wait
      outcome = static_cast<int>(ReadOutcome::failed);
      message = cat(printable(path.string()), ": ", e.what());
    }
  }
  INERTIA_MPI(MPI_Bcast(&outcome, 1, MPI_INT, 0, comm));
  if (outcome != static_cast<int>(ReadOutcome::table)) {
    message = broadcast_string(comm, message);
    if (outcome == static_cast<int>(ReadOutcome::unreadable))
      throw AmplitudeFileUnreadable(message);
    if (outcome == static_cast<int>(ReadOutcome::bad_content)) throw InputError(message);
    throw Error(message);
  }
  std::int64_t facts[3] = {static_cast<std::int64_t>(table.points.size()), table.read.header_line,
                           table.read.byte_order_mark};
  INERTIA_MPI(MPI_Bcast(facts, 3, MPI_INT64_T, 0, comm));
  INERTIA_MPI(MPI_Bcast(&table.read.dt, 1, MPI_DOUBLE, 0, comm));
  table.read.header = broadcast_string(comm, table.read.header);
  table.read.file_units = broadcast_string(comm, table.read.file_units);
  table.read.title = broadcast_string(comm, table.read.title);
  table.read.format = format;
  table.read.header_line = static_cast<int>(facts[1]);
  table.read.byte_order_mark = facts[2] != 0;
  table.read.rows = facts[0];
  table.points.resize(static_cast<std::size_t>(facts[0]));
  // The points as 2 n doubles, in pieces that fit an int count.
  static_assert(sizeof(std::pair<double, double>) == 2 * sizeof(double));
  auto* values = reinterpret_cast<double*>(table.points.data());
  const std::int64_t total = 2 * facts[0];
  constexpr std::int64_t piece = std::int64_t{1} << 28;
  for (std::int64_t begin = 0; begin < total; begin += piece)
    INERTIA_MPI(MPI_Bcast(values + begin, static_cast<int>(std::min(piece, total - begin)),
                          MPI_DOUBLE, 0, comm));
  return table;
}

}  // namespace

CaseFile load_case(MPI_Comm comm, const std::filesystem::path& file) {
  std::string text;
  run_on_root(comm, [&] {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw InputError(cat(printable(file.string()), ": cannot open the case file"));
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  });
  text = broadcast_string(comm, std::move(text));
  // Every rank parses the same text, so every rank asks for the same files in the same order
  // and fails at the same key: the reader's broadcasts match up.
  return parse_case(text, file,
                    [comm](const std::filesystem::path& p, RecordFormat format, double dt,
                           std::string_view abscissa) {
                      return read_table_on_root(comm, p, format, dt, abscissa);
                    });
}

}  // namespace inertia
