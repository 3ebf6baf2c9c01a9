// An example catalog provider in Go: the catalyzer.v1.CatalogProvider
// service (proto/catalog_provider.proto) that an engine runs so that
// catalyzerd loads the engine's tables on demand, on the stock grpc-go stack
// (stubs from protoc-gen-go + protoc-gen-go-grpc, nothing hand-written on the
// wire). It does what providers/python/catalog_provider.py does:
//
// It serves the tables declared in DDL files (`CREATE TABLE name (col TYPE
// [NOT NULL] [COMMENT '...'], ...);`, the format of
// ../shared/workloads/*/schema.sql), one namespace per file, read at start
// and again whenever a file's modification time changes: each table's
// version is a digest of its definition, so an edited table gets a new
// version and catalyzerd's next revalidation sees it. `--synthetic N` adds a
// namespace `synthetic` of N generated tables (t0 ... tN-1); `--function
// NS.NAME(TYPE,...)->TYPE` is what LoadFunction answers.
//
// Every call is logged as one JSON line on stdout ({"rpc": "LoadTable",
// "name": "tpcds.store", "result": "loaded" | "not_modified" | "not_found"}),
// which is how the tests count loads. The first line is {"listening": PORT}.
//
// Usage: czprovider --listen 127.0.0.1:0 --schema tpcds=FILE [--schema NS=FILE ...]
//
//	[--synthetic N] [--function NS.NAME(TYPE,...)->TYPE ...] [--aggregate NS.NAME(TYPE,...)->TYPE ...]
//	[--unversioned]
//
// Built in GOPATH mode over Debian's /usr/share/gocode (grpc-go, protobuf),
// offline: tests/catalogs/provider_process.py shows how.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	pb "catalyzer/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type column struct {
	Name     string
	Type     string
	Nullable bool
	Comment  string
}

type table struct {
	cols    []column
	version string
}

type function struct {
	args      []string
	result    string
	aggregate bool
}

type schemaFile struct{ ns, path string }

// The catalog: namespaces of tables from DDL files (re-read when they change)
// and the synthetic ones.
type catalog struct {
	mu         sync.Mutex
	files      []schemaFile
	mtimes     map[string]int64
	namespaces map[string]map[string]table
	synthetic  int
	functions  map[string]function // "ns.name"
}

var (
	createTable = regexp.MustCompile(`(?is)CREATE\s+TABLE\s+` + "`?" + `(\w+)` + "`?" + `\s*\((.*?)\)\s*;`)
	columnDef   = regexp.MustCompile(`(?is)^` + "`?" + `([^` + "`" + `\s]+)` + "`?" +
		`\s+(.+?)(\s+NOT\s+NULL)?(?:\s+COMMENT\s+'((?:[^']|'')*)')?$`)
	lineComment = regexp.MustCompile(`--[^\n]*`)
	spaces      = regexp.MustCompile(`\s+`)
	synthName   = regexp.MustCompile(`^t\d+$`)
	functionArg = regexp.MustCompile(`^(\w+)\.(\w+)\((.*)\)->(.+)$`)
)

// splitTopLevel: "a INT, b DECIMAL(7,2)" -> ["a INT", "b DECIMAL(7,2)"].
func splitTopLevel(text string) []string {
	var parts []string
	depth, start := 0, 0
	for i, ch := range text {
		switch ch {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(text[start:i]))
				start = i + 1
			}
		}
	}
	if last := strings.TrimSpace(text[start:]); last != "" {
		parts = append(parts, last)
	}
	return parts
}

// sparkType: a DDL type as Spark's catalogString writes it ("DECIMAL(7, 2)" -> "decimal(7,2)").
func sparkType(t string) string { return strings.ToLower(spaces.ReplaceAllString(t, "")) }

func parseDDL(text string) (map[string][]column, error) {
	text = lineComment.ReplaceAllString(text, "")
	tables := map[string][]column{}
	for _, m := range createTable.FindAllStringSubmatch(text, -1) {
		var cols []column
		for _, c := range splitTopLevel(m[2]) {
			cm := columnDef.FindStringSubmatch(c)
			if cm == nil {
				return nil, fmt.Errorf("cannot read column %q of %s", c, m[1])
			}
			cols = append(cols, column{cm[1], sparkType(cm[2]), cm[3] == "", strings.ReplaceAll(cm[4], "''", "'")})
		}
		tables[m[1]] = cols
	}
	return tables, nil
}

func versionOf(v interface{}) string {
	b, _ := json.Marshal(v)
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:8])
}

func (c *catalog) refresh() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.files {
		st, err := os.Stat(f.path)
		if err != nil {
			return err
		}
		if m, ok := c.mtimes[f.path]; ok && m == st.ModTime().UnixNano() {
			continue
		}
		text, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		tables, err := parseDDL(string(text))
		if err != nil {
			return err
		}
		ns := map[string]table{}
		for name, cols := range tables {
			ns[name] = table{cols, versionOf(cols)}
		}
		c.namespaces[f.ns] = ns
		c.mtimes[f.path] = st.ModTime().UnixNano()
	}
	if c.synthetic > 0 && c.namespaces["synthetic"] == nil {
		c.namespaces["synthetic"] = map[string]table{}
	}
	return nil
}

var syntheticTypes = []string{"int", "string", "decimal(12,2)", "date", "array<string>", "double", "timestamp"}

func (c *catalog) table(ns []string, name string) (table, bool) {
	if err := c.refresh(); err != nil {
		fmt.Fprintln(os.Stderr, "czprovider:", err)
	}
	if len(ns) == 1 && ns[0] == "synthetic" && c.synthetic > 0 && synthName.MatchString(name) {
		if i, err := strconv.Atoi(name[1:]); err == nil && i < c.synthetic {
			cols := []column{{"id", "bigint", false, ""}}
			for k, t := range syntheticTypes {
				cols = append(cols, column{fmt.Sprintf("c%d_%d", i, k), t, true, ""})
			}
			return table{cols, "synthetic-1"}, true
		}
	}
	if len(ns) != 1 {
		return table{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.namespaces[ns[0]][name]
	return t, ok
}

func (c *catalog) hasNamespace(ns string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.namespaces[ns]
	return ok
}

var (
	logMu       sync.Mutex
	unversioned bool
)

func logCall(rpc, name, result string) {
	b, _ := json.Marshal(map[string]string{"rpc": rpc, "name": name, "result": result})
	logMu.Lock()
	os.Stdout.Write(append(b, '\n'))
	logMu.Unlock()
}

type server struct {
	pb.UnimplementedCatalogProviderServer
	cat *catalog
}

func dotted(ns []string, name string) string {
	return strings.Join(append(append([]string{}, ns...), name), ".")
}

func (s *server) LoadTable(_ context.Context, req *pb.LoadTableRequest) (*pb.LoadTableResponse, error) {
	ns, name := req.GetTable().GetNamespace(), req.GetTable().GetName()
	ident := dotted(ns, name)
	t, ok := s.cat.table(ns, name)
	if !ok {
		logCall("LoadTable", ident, "not_found")
		return nil, status.Errorf(codes.NotFound, "no table %s in catalog %s", ident, req.GetContext().GetCatalog())
	}
	if req.GetKnownVersion() != "" && req.GetKnownVersion() == t.version {
		logCall("LoadTable", ident, "not_modified")
		return &pb.LoadTableResponse{NotModified: true}, nil
	}
	logCall("LoadTable", ident, "loaded")
	version := t.version
	if unversioned {
		version = ""
	}
	m := &pb.TableMetadata{Name: ident, Version: version,
		Properties: map[string]string{"provider": "catalyzer-example-go"}}
	for _, c := range t.cols {
		m.Columns = append(m.Columns, &pb.ColumnMetadata{Name: c.Name, DataType: c.Type, Nullable: c.Nullable,
			Comment: c.Comment})
	}
	return &pb.LoadTableResponse{Table: m}, nil
}

func (s *server) ListNamespaces(_ context.Context, req *pb.ListNamespacesRequest) (*pb.ListNamespacesResponse, error) {
	s.cat.refresh()
	parent := req.GetNamespace()
	logCall("ListNamespaces", strings.Join(parent, "."), "listed")
	if len(parent) == 0 {
		s.cat.mu.Lock()
		var names []string
		for n := range s.cat.namespaces {
			names = append(names, n)
		}
		s.cat.mu.Unlock()
		sort.Strings(names)
		resp := &pb.ListNamespacesResponse{}
		for _, n := range names {
			resp.Namespaces = append(resp.Namespaces, &pb.Namespace{Parts: []string{n}})
		}
		return resp, nil
	}
	if len(parent) == 1 && s.cat.hasNamespace(parent[0]) {
		return &pb.ListNamespacesResponse{}, nil
	}
	return nil, status.Errorf(codes.NotFound, "no namespace %s", strings.Join(parent, "."))
}

func (s *server) ListTables(_ context.Context, req *pb.ListTablesRequest) (*pb.ListTablesResponse, error) {
	s.cat.refresh()
	ns := req.GetNamespace()
	logCall("ListTables", strings.Join(ns, "."), "listed")
	if len(ns) != 1 || !s.cat.hasNamespace(ns[0]) {
		return nil, status.Errorf(codes.NotFound, "no namespace %s", strings.Join(ns, "."))
	}
	var names []string
	if ns[0] == "synthetic" {
		for i := 0; i < s.cat.synthetic; i++ {
			names = append(names, fmt.Sprintf("t%d", i))
		}
	} else {
		s.cat.mu.Lock()
		for n := range s.cat.namespaces[ns[0]] {
			names = append(names, n)
		}
		s.cat.mu.Unlock()
		sort.Strings(names)
	}
	resp := &pb.ListTablesResponse{}
	for _, n := range names {
		resp.Tables = append(resp.Tables, &pb.Identifier{Namespace: ns, Name: n})
	}
	return resp, nil
}

func (s *server) LoadFunction(_ context.Context, req *pb.LoadFunctionRequest) (*pb.LoadFunctionResponse, error) {
	ns, name := req.GetFunction().GetNamespace(), req.GetFunction().GetName()
	ident := dotted(ns, name)
	key := ""
	if len(ns) == 1 {
		key = ns[0] + "." + name
	}
	f, ok := s.cat.functions[key]
	if !ok {
		logCall("LoadFunction", ident, "not_found")
		return nil, status.Errorf(codes.NotFound, "no function %s", ident)
	}
	logCall("LoadFunction", ident, "loaded")
	return &pb.LoadFunctionResponse{Name: name, ArgumentTypes: f.args, ResultType: f.result, Deterministic: true,
		Aggregate: f.aggregate,
		Version:   versionOf([]interface{}{f.args, f.result})}, nil
}

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "HOST:PORT to serve on")
	synthetic := flag.Int("synthetic", 0, "a namespace `synthetic` of N generated tables")
	flag.BoolVar(&unversioned, "unversioned", false,
		"tables carry no version: a revalidation always loads the table (bench/catalogs.sh's cold run)")
	var schemas, functions, aggregates repeated
	flag.Var(&schemas, "schema", "NS=FILE: a namespace of the tables a DDL file declares (repeatable)")
	flag.Var(&functions, "function", "NS.NAME(TYPE,...)->TYPE: what LoadFunction answers (repeatable)")
	flag.Var(&aggregates, "aggregate", "NS.NAME(TYPE,...)->TYPE: the same for an aggregate function (repeatable)")
	flag.Parse()
	cat := &catalog{mtimes: map[string]int64{}, namespaces: map[string]map[string]table{}, synthetic: *synthetic,
		functions: map[string]function{}}
	for _, s := range schemas {
		kv := strings.SplitN(s, "=", 2)
		if len(kv) != 2 {
			fmt.Fprintf(os.Stderr, "czprovider: --schema %s: expected NS=FILE\n", s)
			os.Exit(2)
		}
		cat.files = append(cat.files, schemaFile{kv[0], kv[1]})
	}
	for i, f := range append(append([]string{}, functions...), aggregates...) {
		m := functionArg.FindStringSubmatch(strings.ReplaceAll(f, " ", ""))
		if m == nil {
			fmt.Fprintf(os.Stderr, "czprovider: --function %s: expected NS.NAME(TYPE,...)->TYPE\n", f)
			os.Exit(2)
		}
		cat.functions[m[1]+"."+m[2]] = function{splitTopLevel(m[3]), m[4], i >= len(functions)}
	}
	if err := cat.refresh(); err != nil {
		fmt.Fprintln(os.Stderr, "czprovider:", err)
		os.Exit(2)
	}
	lis, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "czprovider:", err)
		os.Exit(2)
	}
	srv := grpc.NewServer()
	pb.RegisterCatalogProviderServer(srv, &server{cat: cat})
	b, _ := json.Marshal(map[string]int{"listening": lis.Addr().(*net.TCPAddr).Port})
	os.Stdout.Write(append(b, '\n'))
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-stop
		srv.Stop()
	}()
	if err := srv.Serve(lis); err != nil {
		fmt.Fprintln(os.Stderr, "czprovider:", err)
		os.Exit(1)
	}
}
