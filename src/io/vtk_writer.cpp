#include "inertia/io/vtk_writer.hpp"

#include <unistd.h>
#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkIdTypeArray.h>
#include <vtkIntArray.h>
#include <vtkLogger.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <string_view>
#include <system_error>

#include "inertia/core/error.hpp"
#include "inertia/core/files.hpp"
#include "inertia/parallel/session.hpp"
#include "io_common.hpp"
#include "series_index.hpp"

namespace inertia::io {

namespace fs = std::filesystem;
using detail::check_series_name;
using detail::create_output_directory;
using detail::format_time;
using detail::xml_comment_text;
using detail::xml_escape;
using detail::zero_padded;

namespace {

static_assert(sizeof(vtkIdType) == 8, "inertia needs VTK built with 64-bit ids");

constexpr std::string_view byte_order =
    std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";

/// Scalar type of a field, as a bit so that ranks can OR what they have seen.
enum TypeBit : int { type_unknown = 0, type_float64 = 1, type_int32 = 2 };

/// Writes `text` to `path` plainly (the .pvtu: only referenced once complete).
void write_file(const fs::path& path, const std::string& text) {
  OutputFile file(path, OutputFile::Mode::truncate);
  file.write(text);
  file.close();
}

std::int64_t size_of_file(const fs::path& path) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  if (ec) throw_io_error(path, ec.value());
  return static_cast<std::int64_t>(size);
}

/// Keeps the first error VTK reports on an object (instead of VTK printing it to stderr).
void catch_vtk_error(vtkObject*, unsigned long, void* client, void* call) {
  auto& message = *static_cast<std::string*>(client);
  if (message.empty()) message = call ? static_cast<const char*>(call) : "unknown VTK error";
}

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

/// The local type bit of a field over `count` points or cells; checks the sizes.
int local_type(const Field& f, std::int64_t count, std::string_view where) {
  INERTIA_CHECK(!f.name.empty(), InternalError, "VTK output: a ", where, " field has no name");
  INERTIA_CHECK(f.components >= 1, InternalError, "VTK output: ", where, " field '", f.name,
                "' has ", f.components, " components");
  INERTIA_CHECK(f.values.empty() || f.int_values.empty(), InternalError, "VTK output: ", where,
                " field '", f.name, "' has both Float64 and Int32 values");
  const auto expected = static_cast<std::size_t>(count) * static_cast<std::size_t>(f.components);
  const std::size_t have = f.values.empty() ? f.int_values.size() : f.values.size();
  INERTIA_CHECK(have == expected, InternalError, "VTK output: ", where, " field '", f.name,
                "' has ", have, " values, expected ", expected, " (", count, " x ", f.components,
                ")");
  if (!f.values.empty()) return type_float64;
  if (!f.int_values.empty()) return type_int32;
  return type_unknown;
}

void check_mesh(const PieceMesh& mesh) {
  INERTIA_CHECK(mesh.coords.size() % 3 == 0, InternalError, "VTK output: ", mesh.coords.size(),
                " coordinates is not a multiple of 3");
  const auto num_points = static_cast<std::int64_t>(mesh.coords.size() / 3);
  const std::size_t num_cells = mesh.cell_types.size();
  if (num_cells == 0 && mesh.cell_offsets.empty()) return;
  INERTIA_CHECK(mesh.cell_offsets.size() == num_cells + 1, InternalError,
                "VTK output: ", mesh.cell_offsets.size(), " cell offsets for ", num_cells,
                " cells");
  INERTIA_CHECK(mesh.cell_offsets.front() == 0 &&
                    mesh.cell_offsets.back() == static_cast<std::int64_t>(mesh.cell_nodes.size()),
                InternalError, "VTK output: cell offsets do not span the ", mesh.cell_nodes.size(),
                " cell nodes");
  for (std::size_t c = 0; c < num_cells; ++c) {
    const std::int64_t n = mesh.cell_offsets[c + 1] - mesh.cell_offsets[c];
    INERTIA_CHECK(n == info(mesh.cell_types[c]).num_nodes, InternalError, "VTK output: cell ", c,
                  " (", info(mesh.cell_types[c]).name, ") has ", n, " nodes");
  }
  for (std::int64_t node : mesh.cell_nodes)
    INERTIA_CHECK(node >= 0 && node < num_points, InternalError, "VTK output: cell node ", node,
                  " is not a local node (", num_points, " points)");
}

vtkSmartPointer<vtkDataArray> make_array(const Field& f, std::int64_t count, int type) {
  const vtkIdType n = static_cast<vtkIdType>(count) * f.components;
  if (type == type_int32) {
    static_assert(sizeof(int) == sizeof(std::int32_t));
    auto a = vtkSmartPointer<vtkIntArray>::New();
    a->SetName(f.name.c_str());
    a->SetNumberOfComponents(f.components);
    if (n > 0)  // zero-copy: the writer only reads; save = 1 so VTK never frees our memory
      a->SetArray(const_cast<int*>(f.int_values.data()), n, 1);
    return a;
  }
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(f.name.c_str());
  a->SetNumberOfComponents(f.components);
  if (n > 0) a->SetArray(const_cast<double*>(f.values.data()), n, 1);
  return a;
}

/// Name of the first 3-component Float64 point field, the default for Warp By Vector.
std::string default_vectors(std::span<const Field> fields, std::span<const int> types) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].components == 3 && types[i] == type_float64) return fields[i].name;
  return {};
}

void write_piece(const fs::path& path, const PieceMesh& mesh, std::span<const Field> point_data,
                 std::span<const int> point_types, std::span<const Field> cell_data,
                 std::span<const int> cell_types) {
  const auto num_points = static_cast<std::int64_t>(mesh.coords.size() / 3);
  const auto num_cells = static_cast<std::int64_t>(mesh.cell_types.size());

  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  if (num_points > 0) xyz->SetArray(const_cast<double*>(mesh.coords.data()), num_points * 3, 1);
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  grid->SetPoints(points);

  vtkNew<vtkUnsignedCharArray> types;
  types->SetNumberOfValues(num_cells);
  for (std::int64_t c = 0; c < num_cells; ++c)
    types->SetValue(c, static_cast<unsigned char>(info(mesh.cell_types[c]).vtk_id));
  // vtkIdType is long long, std::int64_t is long: same bits, distinct types, so copy.
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  offsets->SetNumberOfValues(num_cells + 1);
  offsets->SetValue(0, 0);
  for (std::int64_t c = 1; c <= num_cells; ++c) offsets->SetValue(c, mesh.cell_offsets[c]);
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(mesh.cell_nodes.size()));
  for (std::size_t i = 0; i < mesh.cell_nodes.size(); ++i)
    connectivity->SetValue(static_cast<vtkIdType>(i), mesh.cell_nodes[i]);
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  grid->SetCells(types, cells);

  for (std::size_t i = 0; i < point_data.size(); ++i)
    grid->GetPointData()->AddArray(make_array(point_data[i], num_points, point_types[i]));
  if (auto v = default_vectors(point_data, point_types); !v.empty())
    grid->GetPointData()->SetActiveVectors(v.c_str());
  for (std::size_t i = 0; i < cell_data.size(); ++i)
    grid->GetCellData()->AddArray(make_array(cell_data[i], num_cells, cell_types[i]));

  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  std::string vtk_error;
  vtkNew<vtkCallbackCommand> on_error;
  on_error->SetCallback(catch_vtk_error);
  on_error->SetClientData(&vtk_error);
  writer->AddObserver(vtkCommand::ErrorEvent, on_error);
  writer->SetInputData(grid);
  writer->SetFileName(path.c_str());
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw appended: smallest and fastest, ParaView reads it
  writer->SetCompressorTypeToZLib();
  writer->SetHeaderTypeToUInt64();  // blocks over 4 GiB
  writer->SetIdTypeToInt64();
  errno = 0;
  const int ok = writer->Write();
  const unsigned long code = writer->GetErrorCode();
  if (!ok || code != 0 || !vtk_error.empty()) {
    // The system's reason when VTK has one (its error codes below FirstVTKErrorCode are errno
    // values; a full disk is OutOfDiskSpaceError), else VTK's own message.
    if (code == vtkErrorCode::OutOfDiskSpaceError) throw_io_error(path, ENOSPC);
    if (code > 0 && code < vtkErrorCode::FirstVTKErrorCode)
      throw_io_error(path, static_cast<int>(code));
    if (errno == ENOSPC || errno == EDQUOT || errno == EIO) throw_io_error(path, errno);
    const std::string why = trim(vtk_error);
    throw IoError(cat(path.string(), ": VTK could not write it", why.empty() ? "" : ": ", why));
  }
}

/// The .pvtu of one step: declarations of the arrays and one Piece per rank.
std::string pvtu_text(std::string_view piece_dir, int num_ranks, std::span<const Field> point_data,
                      std::span<const int> point_types, std::span<const Field> cell_data,
                      std::span<const int> cell_types) {
  auto declare = [](std::string& out, const Field& f, int type) {
    out += cat("      <PDataArray type=\"", type == type_int32 ? "Int32" : "Float64", "\" Name=\"",
               xml_escape(f.name), "\" NumberOfComponents=\"", f.components, "\"/>\n");
  };
  std::string out = cat(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"",
      byte_order, "\" header_type=\"UInt64\">\n", "  <PUnstructuredGrid GhostLevel=\"0\">\n");
  const std::string vectors = default_vectors(point_data, point_types);
  out += "    <PPointData";
  if (!vectors.empty()) out += cat(" Vectors=\"", xml_escape(vectors), "\"");
  out += ">\n";
  for (std::size_t i = 0; i < point_data.size(); ++i) declare(out, point_data[i], point_types[i]);
  out += "    </PPointData>\n    <PCellData>\n";
  for (std::size_t i = 0; i < cell_data.size(); ++i) declare(out, cell_data[i], cell_types[i]);
  out += "    </PCellData>\n";
  out +=
      "    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" "
      "NumberOfComponents=\"3\"/>\n    </PPoints>\n";
  for (int r = 0; r < num_ranks; ++r)
    out += cat("    <Piece Source=\"", xml_escape(piece_dir), "/piece_", zero_padded(r, 4),
               ".vtu\"/>\n");
  out += "  </PUnstructuredGrid>\n</VTKFile>\n";
  return out;
}

/// The .pvd around its entries.
detail::SeriesIndex::Layout pvd_layout() {
  return {cat("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"",
              byte_order, "\">\n"),
          "  ", "  <Collection>\n", "  </Collection>\n</VTKFile>\n"};
}

/// The .pvd's entry of the step at `time` in `file`.
std::string pvd_entry(double time, const std::string& file) {
  return cat("    <DataSet timestep=\"", format_time(time), "\" group=\"\" part=\"0\" file=\"",
             xml_escape(file), "\"/>\n");
}

/// The entries of a .pvd's text that name steps of the series `name`.
std::vector<detail::SeriesEntry> pvd_entries(const std::string& text, const std::string& name) {
  static const std::regex entry(R"re(<DataSet timestep="([^"]*)"[^>]*file="([^"]*)")re");
  const std::regex stem(cat(name, R"(_(\d+)\.pvtu)"));
  std::vector<detail::SeriesEntry> entries;
  for (std::sregex_iterator it(text.begin(), text.end(), entry), end; it != end; ++it) {
    const double time = std::strtod((*it)[1].str().c_str(), nullptr);
    const std::string file = (*it)[2].str();
    std::smatch m;
    if (std::regex_match(file, m, stem))
      entries.push_back({time, std::stoi(m[1]), pvd_entry(time, file)});
  }
  return entries;
}

/// Signature of the field lists (names and components), identical on every rank.
std::string signature(std::span<const Field> point_data, std::span<const Field> cell_data) {
  std::string s;
  for (const auto& f : point_data) s += cat("p:", f.name, ":", f.components, ";");
  for (const auto& f : cell_data) s += cat("c:", f.name, ":", f.components, ";");
  return s;
}

bool same_on_all_ranks(MPI_Comm comm, std::string text) {
  std::int64_t len = static_cast<std::int64_t>(text.size()), root_len = len;
  INERTIA_MPI(MPI_Bcast(&root_len, 1, MPI_INT64_T, 0, comm));
  std::string root_text = text;
  root_text.resize(static_cast<std::size_t>(root_len));
  INERTIA_MPI(MPI_Bcast(root_text.data(), static_cast<int>(root_len), MPI_CHAR, 0, comm));
  return all_true(comm, root_text == text);
}

}  // namespace

VtkSeriesWriter::VtkSeriesWriter(MPI_Comm comm, std::filesystem::path directory, std::string name,
                                 std::optional<double> resume_up_to)
    : comm_(comm), directory_(std::move(directory)), name_(std::move(name)) {
  // VTK's own error printing (several coloured log lines per rank) is off: the writer's error
  // observer keeps the message and write_piece() reports one line with the reason.
  vtkObject::GlobalWarningDisplayOff();
  vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  check_series_name(comm_, directory_, name_);
  pvd_ = directory_ / (name_ + ".pvd");
  run_on_root(comm_, [&] {
    index_ = std::make_unique<detail::SeriesIndex>(pvd_, pvd_layout());
    index_->start(directory_, resume_up_to,
                  [&](const std::string& text) { return pvd_entries(text, name_); });
    counter_ = index_->next_step();
  });
  int counter = counter_;
  INERTIA_MPI(MPI_Bcast(&counter, 1, MPI_INT, 0, comm_));
  counter_ = counter;
  // Every rank writes its own pieces there: the directory must be visible everywhere.
  run_collectively(comm_, [&] {
    std::error_code ec;
    INERTIA_CHECK(fs::is_directory(directory_, ec), InputError, "output directory ",
                  directory_.string(), " is not visible on rank ", rank_of(comm_),
                  " (parallel output needs a shared file system)");
  });
}

std::int64_t VtkSeriesWriter::write(double time, const PieceMesh& mesh,
                                    std::span<const Field> point_data,
                                    std::span<const Field> cell_data) {
  const int rank = rank_of(comm_), size = size_of(comm_);
  const std::string stem = cat(name_, "_", zero_padded(counter_, 6));
  const fs::path piece_dir = directory_ / stem;
  const fs::path piece = piece_dir / cat("piece_", zero_padded(rank, 4), ".vtu");
  const fs::path pvtu = directory_ / (stem + ".pvtu");

  // Checks and the array types agreed over ranks (an empty piece has no values to tell).
  std::vector<int> types(point_data.size() + cell_data.size(), type_unknown);
  run_collectively(comm_, [&] {
    check_mesh(mesh);
    const auto num_points = static_cast<std::int64_t>(mesh.coords.size() / 3);
    const auto num_cells = static_cast<std::int64_t>(mesh.cell_types.size());
    for (std::size_t i = 0; i < point_data.size(); ++i)
      types[i] = local_type(point_data[i], num_points, "point");
    for (std::size_t i = 0; i < cell_data.size(); ++i)
      types[point_data.size() + i] = local_type(cell_data[i], num_cells, "cell");
  });
  INERTIA_CHECK(same_on_all_ranks(comm_, signature(point_data, cell_data)), InternalError,
                "VTK output: the point and cell fields differ between ranks");
  if (!types.empty())
    INERTIA_MPI(MPI_Allreduce(MPI_IN_PLACE, types.data(), static_cast<int>(types.size()), MPI_INT,
                              MPI_BOR, comm_));
  for (std::size_t i = 0; i < types.size(); ++i) {
    INERTIA_CHECK(
        types[i] != (type_float64 | type_int32), InternalError, "VTK output: field '",
        i < point_data.size() ? point_data[i].name : cell_data[i - point_data.size()].name,
        "' is Float64 on some ranks and Int32 on others");
    if (types[i] == type_unknown) types[i] = type_float64;  // empty everywhere
  }
  const std::span<const int> point_types(types.data(), point_data.size());
  const std::span<const int> cell_types(types.data() + point_data.size(), cell_data.size());

  // 1. Every rank's piece, then a collective success check.
  run_on_root(comm_, [&] {
    std::error_code ec;
    fs::create_directories(piece_dir, ec);
    if (ec) throw_io_error(piece_dir, ec.value());
  });
  std::int64_t bytes = 0;
  try {
    run_collectively(comm_, [&] {
      write_piece(piece, mesh, point_data, point_types, cell_data, cell_types);
      bytes = size_of_file(piece);
    });
  } catch (const Error&) {
    // The failed step is not in the series: its pieces go (a full disk gets the space back for
    // the INCOMPLETE marks).
    if (rank == 0) {
      std::error_code ignored;
      fs::remove_all(piece_dir, ignored);
    }
    throw;
  }

  // 2. Only complete steps get a .pvtu, and only steps with a .pvtu enter the .pvd.
  run_on_root(comm_, [&] {
    write_file(pvtu, pvtu_text(stem, size, point_data, point_types, cell_data, cell_types));
    bytes += size_of_file(pvtu);
    index_->add(time, pvd_entry(time, stem + ".pvtu"));
  });
  ++counter_;

  std::int64_t total = 0;
  INERTIA_MPI(MPI_Allreduce(&bytes, &total, 1, MPI_INT64_T, MPI_SUM, comm_));
  return total;
}

VtkSeriesWriter::~VtkSeriesWriter() = default;

void VtkSeriesWriter::mark_failed(const std::string& reason) {
  if (index_) index_->mark_failed(reason);
}

}  // namespace inertia::io
