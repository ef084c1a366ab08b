package admin

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/apperr"
	"hearth/internal/importer"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// importPages are Admin → Imports: uploads of Apple Health exports and CSV files.
type importPages struct {
	*core
	importer  Importer
	uploadDir string
	maxImport int64
}

// recentImports is how many past imports the page lists.
const recentImports = 20

var importKinds = []views.Option{
	{Value: "auto", Label: "detect from the file"},
	{Value: "apple", Label: "Apple Health export (zip or xml)"},
	{Value: "csv-weight", Label: "CSV: weigh-ins"},
	{Value: "csv-meals", Label: "CSV: meals"},
	{Value: "csv-workouts", Label: "CSV: workouts"},
	{Value: "csv-body-scans", Label: "CSV: body scans (Hearth's own export)"},
}

var importUnits = []views.Option{
	{Value: "", Label: "the member's unit"},
	{Value: "kg", Label: "kg"},
	{Value: "lb", Label: "lb"},
}

func (s *importPages) recentImportRows(ctx context.Context) ([]adminview.ImportRow, error) {
	runs, err := s.importer.Recent(ctx, "", recentImports)
	if err != nil {
		return nil, err
	}
	out := make([]adminview.ImportRow, len(runs))
	for i, r := range runs {
		out[i] = adminview.ImportRow{ID: r.ID, Member: r.MemberID, File: r.FileName, Kind: string(r.Kind), Status: r.Status,
			Started: s.fmtWhen(r.StartedAt), Added: r.Added, Duplicate: r.SkippedDuplicate, Unknown: r.SkippedUnknown,
			Rejected: r.Rejected, Error: r.Error}
	}
	return out, nil
}

func (s *importPages) importsPage(c echo.Context, form views.FormState, st adminview.ImportStatus) (adminview.AdminImports, error) {
	ctx := c.Request().Context()
	p := adminview.AdminImports{AdminPage: s.adminPage(c, "Imports", "imports"), Form: form, Kinds: importKinds, Units: importUnits, Status: st,
		MaxSize: importer.FormatBytes(s.maxImportBytes())}
	var err error
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	if p.Recent, err = s.recentImportRows(ctx); err != nil {
		return p, err
	}
	return p, nil
}

// adminImports shows the upload form and the import history.
func (s *importPages) adminImports(c echo.Context) error {
	p, err := s.importsPage(c, views.FormState{Values: map[string]string{"kind": "auto"}}, adminview.ImportStatus{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminImportsPage(p))
}

// importSummaryView is the same summary the CLI prints.
func importSummaryView(sum importer.Summary) *adminview.ImportSummaryView {
	v := &adminview.ImportSummaryView{File: sum.File, Kind: string(sum.Kind), Profile: sum.Profile, Size: importer.FormatBytes(sum.Bytes),
		Took: sum.Duration.Round(time.Millisecond).String(), Added: sum.Added, Updated: sum.Updated, Duplicate: sum.SkippedDuplicate,
		Repeated: sum.RepeatedInFile, Kept: sum.KeptEdits, Unknown: sum.SkippedUnknown, Rejected: sum.Rejected,
		Notes: importer.SummaryLines(sum)[1:]} // the first line is the counts above
	for _, p := range sum.Problems {
		v.Problems = append(v.Problems, p.Error())
	}
	if more := sum.TotalProblems - len(sum.Problems); more > 0 {
		v.Problems = append(v.Problems, fmt.Sprintf("… and %d more", more))
	}
	for label, tc := range sum.Types {
		v.Types = append(v.Types, adminview.ImportTypeRow{Type: strings.TrimPrefix(label, "HKQuantityTypeIdentifier"),
			Added: tc.Added, Updated: tc.Updated, Duplicate: tc.Duplicate, Repeated: tc.Repeated, Rejected: tc.Rejected})
	}
	sort.Slice(v.Types, func(i, j int) bool { return v.Types[i].Type < v.Types[j].Type })
	return v
}

// importFailure is the status shown for a refused file; ok is false for
// errors that are not the user's (they go to the error handler).
func importFailure(err error) (adminview.ImportStatus, bool) {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return adminview.ImportStatus{}, false
	}
	switch ae.Code {
	case apperr.Invalid, apperr.NotFound, apperr.TooLarge:
	default:
		return adminview.ImportStatus{}, false
	}
	st := adminview.ImportStatus{Error: ae.Message}
	if len(ae.Fields) > 0 {
		st.Error += ": " + httpkit.FieldList(ae.Fields)
	}
	var ve *importer.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			st.Problems = append(st.Problems, p.Error())
		}
		if more := ve.Total - len(ve.Problems); more > 0 {
			st.Problems = append(st.Problems, "… and more")
		}
	}
	return st, true
}

func progressStatus(p importer.Progress) adminview.ImportStatus {
	st := adminview.ImportStatus{Active: true, File: p.File, Percent: -1, Read: importer.FormatBytes(p.BytesRead), Records: p.Records}
	if pct := p.Percent(); pct >= 0 {
		st.Percent = int(pct)
	}
	return st
}

// checkUpload validates the form before the import starts.
func checkUpload(u *upload) (importer.Options, error) {
	errs := map[string]string{}
	opts := importer.Options{Member: strings.TrimSpace(u.fields["member"])}
	if opts.Member == "" {
		errs["member"] = "choose the member to import for"
	}
	kind, err := importer.ParseKind(u.fields["kind"])
	if err != nil {
		errs["kind"] = "choose a kind from the list"
	}
	opts.Kind = kind
	if opts.Unit, err = importer.ParseUnit(u.fields["unit"]); err != nil {
		errs["unit"] = "choose kg, lb or the member's unit"
	}
	opts.Strict = u.fields["strict"] == "1"
	if u.file == nil || u.size == 0 {
		errs["file"] = "choose a non-empty file"
	}
	if len(errs) > 0 {
		return opts, apperr.FieldErrors(errs)
	}
	return opts, nil
}

// adminImportUpload imports an uploaded file for a member. A Datastar
// request gets a stream: progress while the file is read, then the summary
// (or the problems, nothing imported) and the refreshed history. A plain
// form post gets the page with the summary. The import runs on the
// request's context: closing the page cancels it and nothing is kept.
func (s *importPages) adminImportUpload(c echo.Context) error {
	liftDeadlines(c)
	u, err := s.receiveUpload(c, "file")
	defer u.close()
	var opts importer.Options
	if err == nil {
		opts, err = checkUpload(u)
	}
	if err != nil {
		return s.importRefused(c, u, err)
	}
	httpkit.Owner(c, "") // the page it answers with lists every member's imports
	opts.Location = s.opt.Location
	ctx := c.Request().Context()
	if !httpkit.IsDatastar(c) {
		sum, err := s.importer.Import(ctx, opts, u.name, u.file, u.size)
		if err != nil {
			return s.importRefused(c, u, err)
		}
		p, perr := s.importsPage(c, views.FormState{Values: u.fields}, adminview.ImportStatus{Summary: importSummaryView(sum)})
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, http.StatusOK, adminview.AdminImportsPage(p))
	}
	sse := httpkit.NewSSE(c)
	_ = sse.PatchElementTempl(adminview.ImportStatusView(adminview.ImportStatus{Active: true, File: u.name, Percent: 0, Read: "0 B"}))
	opts.Progress = func(p importer.Progress) {
		if !p.Done {
			_ = sse.PatchElementTempl(adminview.ImportStatusView(progressStatus(p)))
		}
	}
	sum, err := s.importer.Import(ctx, opts, u.name, u.file, u.size)
	st := adminview.ImportStatus{Summary: importSummaryView(sum)}
	if err != nil {
		var ok bool
		if st, ok = importFailure(err); !ok {
			s.log.Error("admin import", "file", u.name, "member", opts.Member, "err", err)
			st = adminview.ImportStatus{Error: "the import failed (nothing was imported); see the server log"}
		}
	}
	return s.finishImportStream(ctx, sse, st)
}

func (s *importPages) finishImportStream(ctx context.Context, sse *datastar.ServerSentEventGenerator, st adminview.ImportStatus) error {
	if err := sse.PatchElementTempl(adminview.ImportStatusView(st)); err != nil {
		return nil
	}
	if rows, err := s.recentImportRows(ctx); err == nil {
		_ = sse.PatchElementTempl(adminview.ImportsList(rows))
	}
	return nil
}

// importRefused shows why a file was not imported: in the status area for
// a Datastar request, on the page (fields kept) for a plain form.
func (s *importPages) importRefused(c echo.Context, u *upload, err error) error {
	st, ok := importFailure(err)
	if !ok {
		return err
	}
	if httpkit.IsDatastar(c) {
		return s.finishImportStream(c.Request().Context(), httpkit.NewSSE(c), st)
	}
	values := map[string]string{"member": u.fields["member"], "kind": u.fields["kind"], "unit": u.fields["unit"], "strict": u.fields["strict"]}
	fs, ferr := formFailure(err, values)
	if ferr != nil {
		fs = views.FormState{Values: values}
	}
	p, perr := s.importsPage(c, fs, st)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, httpkit.Status(apperr.CodeOf(err)), adminview.AdminImportsPage(p))
}
