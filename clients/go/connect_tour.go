// The Spark Connect calls an engine that already speaks Spark Connect makes,
// each checked against what Spark answers: every AnalyzePlan kind, every
// Config operation, ExecutePlan of a command (and the refusal of a query),
// errors as ErrorUtils sends them (google.rpc.Status with ErrorInfo in
// grpc-status-details-bin), bad plans refused with INVALID_ARGUMENT, and
// ReleaseSession. One line per check, "connect-tour ok: NAME"; the first
// mismatch ends the program with a non-zero exit.
package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	sc "czclient/sparkconnect"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type tour struct {
	ctx   context.Context
	spark sc.SparkConnectServiceClient
	sid   string
	user  *sc.UserContext
}

func sqlRelation(query string) *sc.Relation {
	return &sc.Relation{RelType: &sc.Relation_Sql{Sql: &sc.SQL{Query: query}}}
}

func rootPlan(r *sc.Relation) *sc.Plan { return &sc.Plan{OpType: &sc.Plan_Root{Root: r}} }

func passed(name string) { fmt.Printf("connect-tour ok: %s\n", name) }

func strp(s string) *string { return &s }

// sparkError: the gRPC code and the ErrorInfo Spark Connect attaches to a failed call.
func sparkError(err error) (codes.Code, *errdetails.ErrorInfo) {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return st.Code(), info
		}
	}
	return st.Code(), nil
}

// expectSparkError: the call failed with code and, when errorClass is not
// empty, an ErrorInfo in domain org.apache.spark naming that class.
func expectSparkError(name string, err error, code codes.Code, errorClass string) {
	if err == nil {
		fail("%s: the call succeeded, expected %s %s", name, code, errorClass)
	}
	got, info := sparkError(err)
	if got != code {
		fail("%s: code %s (%v), expected %s", name, got, err, code)
	}
	if errorClass != "" {
		if info == nil {
			fail("%s: no ErrorInfo in the status details (%v)", name, err)
		}
		if info.Domain != "org.apache.spark" || info.Metadata["errorClass"] != errorClass {
			fail("%s: ErrorInfo domain %q errorClass %q, expected org.apache.spark %q", name, info.Domain,
				info.Metadata["errorClass"], errorClass)
		}
		if info.Metadata["sqlState"] == "" || info.Reason == "" {
			fail("%s: ErrorInfo without reason or sqlState: %v", name, info)
		}
	}
	passed(name)
}

func (t *tour) analyze(req *sc.AnalyzePlanRequest) (*sc.AnalyzePlanResponse, error) {
	req.SessionId, req.UserContext = t.sid, t.user
	r, err := t.spark.AnalyzePlan(t.ctx, req)
	if err == nil && r.ServerSideSessionId == "" {
		fail("AnalyzePlan: no server_side_session_id")
	}
	return r, err
}

func (t *tour) mustAnalyze(name string, req *sc.AnalyzePlanRequest) *sc.AnalyzePlanResponse {
	r, err := t.analyze(req)
	if err != nil {
		fail("%s: %v", name, err)
	}
	return r
}

func (t *tour) config(op *sc.ConfigRequest_Operation) (*sc.ConfigResponse, error) {
	return t.spark.Config(t.ctx, &sc.ConfigRequest{SessionId: t.sid, UserContext: t.user, Operation: op})
}

// configPairs: the response's pairs as "key=value" ("key=<unset>" for an absent value).
func (t *tour) configPairs(name string, op *sc.ConfigRequest_Operation) string {
	r, err := t.config(op)
	if err != nil {
		fail("%s: %v", name, err)
	}
	var out []string
	for _, kv := range r.Pairs {
		if kv.Value == nil {
			out = append(out, kv.Key+"=<unset>")
		} else {
			out = append(out, kv.Key+"="+*kv.Value)
		}
	}
	return strings.Join(out, " ")
}

func expectEqual(name, got, want string) {
	if got != want {
		fail("%s:\n got  %q\n want %q", name, got, want)
	}
	passed(name)
}

func (t *tour) configChecks() {
	set := &sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Set{Set: &sc.ConfigRequest_Set{Pairs: []*sc.KeyValue{
		{Key: "spark.sql.ansi.enabled", Value: strp("false")}, {Key: "my.own.key", Value: strp("x")}}}}}
	if _, err := t.config(set); err != nil {
		fail("Config set: %v", err)
	}
	expectEqual("Config set then get (set values, Spark's typed defaults)", t.configPairs("get",
		&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Get{Get: &sc.ConfigRequest_Get{Keys: []string{
			"spark.sql.ansi.enabled", "my.own.key", "spark.sql.shuffle.partitions"}}}}),
		"spark.sql.ansi.enabled=false my.own.key=x spark.sql.shuffle.partitions=200")
	expectEqual("Config get_with_default", t.configPairs("get_with_default",
		&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_GetWithDefault{GetWithDefault: &sc.ConfigRequest_GetWithDefault{
			Pairs: []*sc.KeyValue{{Key: "spark.sql.ansi.enabled", Value: strp("true")}, {Key: "nope.x", Value: strp("d")}}}}}),
		"spark.sql.ansi.enabled=false nope.x=d")
	expectEqual("Config get_option", t.configPairs("get_option",
		&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_GetOption{GetOption: &sc.ConfigRequest_GetOption{
			Keys: []string{"nope.y", "spark.sql.groupByOrdinal"}}}}),
		"nope.y=<unset> spark.sql.groupByOrdinal=true")
	all := t.configPairs("get_all", &sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_GetAll{
		GetAll: &sc.ConfigRequest_GetAll{Prefix: strp("spark.sql.ansi.")}}})
	if !strings.Contains(all, "spark.sql.ansi.enabled=false") || strings.Contains(all, "my.own.key") {
		fail("Config get_all with a prefix: %s", all)
	}
	passed("Config get_all with a prefix")
	if _, err := t.config(&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Unset{
		Unset: &sc.ConfigRequest_Unset{Keys: []string{"spark.sql.ansi.enabled"}}}}); err != nil {
		fail("Config unset: %v", err)
	}
	expectEqual("Config unset returns the default", t.configPairs("get after unset",
		&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Get{Get: &sc.ConfigRequest_Get{
			Keys: []string{"spark.sql.ansi.enabled"}}}}), "spark.sql.ansi.enabled=true")
	expectEqual("Config is_modifiable", t.configPairs("is_modifiable",
		&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_IsModifiable{IsModifiable: &sc.ConfigRequest_IsModifiable{
			Keys: []string{"spark.sql.ansi.enabled", "spark.sql.warehouse.dir"}}}}),
		"spark.sql.ansi.enabled=true spark.sql.warehouse.dir=false")
	_, err := t.config(&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Get{Get: &sc.ConfigRequest_Get{
		Keys: []string{"no.such.key"}}}})
	expectSparkError("Config get of an unknown key: SQL_CONF_NOT_FOUND", err, codes.Internal, "SQL_CONF_NOT_FOUND")
	_, err = t.config(&sc.ConfigRequest_Operation{OpType: &sc.ConfigRequest_Operation_Set{Set: &sc.ConfigRequest_Set{
		Pairs: []*sc.KeyValue{{Key: "spark.sql.warehouse.dir", Value: strp("/tmp/x")}}}}})
	expectSparkError("Config set of a static key: CANNOT_MODIFY_CONFIG", err, codes.Internal, "CANNOT_MODIFY_CONFIG")
}

func (t *tour) analyzeChecks() {
	query := rootPlan(sqlRelation("SELECT id, amount FROM tour_orders WHERE id > 1"))
	r := t.mustAnalyze("schema", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Schema_{
		Schema: &sc.AnalyzePlanRequest_Schema{Plan: query}}})
	var cols []string
	for _, f := range r.GetSchema().GetSchema().GetStruct().GetFields() {
		cols = append(cols, f.Name)
	}
	expectEqual("AnalyzePlan schema", strings.Join(cols, ","), "id,amount")

	modes := []sc.AnalyzePlanRequest_Explain_ExplainMode{sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_UNSPECIFIED,
		sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_SIMPLE, sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_EXTENDED,
		sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_CODEGEN, sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_COST,
		sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_FORMATTED}
	for _, mode := range modes {
		e := t.mustAnalyze("explain "+mode.String(), &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Explain_{
			Explain: &sc.AnalyzePlanRequest_Explain{Plan: query, ExplainMode: mode}}}).GetExplain().GetExplainString()
		// every mode shows the analysed plan and says the later plans are not produced
		if !strings.Contains(e, "Project [id#") || !strings.Contains(e, "not produced") {
			fail("explain %s: %q", mode, e)
		}
		if mode == sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_EXTENDED &&
			(!strings.HasPrefix(e, "== Parsed Logical Plan ==\n") || !strings.Contains(e, "== Analyzed Logical Plan ==\nid: int, amount: decimal(3,2)\n")) {
			fail("explain EXTENDED: Spark's parsed and analysed sections expected: %q", e)
		}
	}
	passed("AnalyzePlan explain, every mode")

	level := int32(1)
	ts := t.mustAnalyze("tree_string", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_TreeString_{
		TreeString: &sc.AnalyzePlanRequest_TreeString{Plan: query, Level: &level}}}).GetTreeString().GetTreeString()
	expectEqual("AnalyzePlan tree_string (level 1)", ts, "root\n |-- id: integer (nullable = false)\n |-- amount: decimal(3,2) (nullable = false)\n")

	local := rootPlan(&sc.Relation{RelType: &sc.Relation_LocalRelation{LocalRelation: &sc.LocalRelation{Schema: strp("a INT")}}})
	isLocal := func(p *sc.Plan) bool {
		return t.mustAnalyze("is_local", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_IsLocal_{
			IsLocal: &sc.AnalyzePlanRequest_IsLocal{Plan: p}}}).GetIsLocal().GetIsLocal()
	}
	if !isLocal(local) || isLocal(rootPlan(sqlRelation("SELECT * FROM range(3)"))) {
		fail("is_local: a local relation must be local, a range not")
	}
	passed("AnalyzePlan is_local")
	if t.mustAnalyze("is_streaming", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_IsStreaming_{
		IsStreaming: &sc.AnalyzePlanRequest_IsStreaming{Plan: query}}}).GetIsStreaming().GetIsStreaming() {
		fail("is_streaming of a batch query")
	}
	passed("AnalyzePlan is_streaming")
	files := t.mustAnalyze("input_files", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_InputFiles_{
		InputFiles: &sc.AnalyzePlanRequest_InputFiles{Plan: query}}}).GetInputFiles().GetFiles()
	expectEqual("AnalyzePlan input_files (a view over inline rows reads no file)", strings.Join(files, ","), "")
	v := t.mustAnalyze("spark_version", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_SparkVersion_{
		SparkVersion: &sc.AnalyzePlanRequest_SparkVersion{}}}).GetSparkVersion().GetVersion()
	if !strings.HasPrefix(v, "4.") {
		fail("spark_version %q", v)
	}
	passed("AnalyzePlan spark_version " + v)

	parsed := t.mustAnalyze("ddl_parse", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_DdlParse{
		DdlParse: &sc.AnalyzePlanRequest_DDLParse{DdlString: "a INT NOT NULL, b ARRAY<STRING>"}}}).GetDdlParse().GetParsed()
	fs := parsed.GetStruct().GetFields()
	if len(fs) != 2 || fs[0].Name != "a" || fs[0].Nullable || fs[0].GetDataType().GetInteger() == nil ||
		fs[1].GetDataType().GetArray() == nil {
		fail("ddl_parse: %v", parsed)
	}
	passed("AnalyzePlan ddl_parse")
	_, err := t.analyze(&sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_DdlParse{
		DdlParse: &sc.AnalyzePlanRequest_DDLParse{DdlString: "a INT,,"}}})
	expectSparkError("AnalyzePlan ddl_parse of bad DDL: PARSE_SYNTAX_ERROR", err, codes.Internal, "PARSE_SYNTAX_ERROR")
	js := `{"type":"struct","fields":[{"name":"id","type":"long","nullable":false,"metadata":{}}]}`
	ddl := t.mustAnalyze("json_to_ddl", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_JsonToDdl{
		JsonToDdl: &sc.AnalyzePlanRequest_JsonToDDL{JsonString: js}}}).GetJsonToDdl().GetDdlString()
	expectEqual("AnalyzePlan json_to_ddl", ddl, "id BIGINT NOT NULL")

	a := rootPlan(sqlRelation("SELECT id + 1 AS x FROM tour_orders"))
	b := rootPlan(sqlRelation("SELECT id + 1 AS y FROM tour_orders"))
	c := rootPlan(sqlRelation("SELECT id + 2 AS x FROM tour_orders"))
	same := func(p, q *sc.Plan) bool {
		return t.mustAnalyze("same_semantics", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_SameSemantics_{
			SameSemantics: &sc.AnalyzePlanRequest_SameSemantics{TargetPlan: p, OtherPlan: q}}}).GetSameSemantics().GetResult()
	}
	if !same(a, b) || same(a, c) {
		fail("same_semantics: aliases must not matter, a different constant must")
	}
	passed("AnalyzePlan same_semantics")
	hash := func(p *sc.Plan) int32 {
		return t.mustAnalyze("semantic_hash", &sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_SemanticHash_{
			SemanticHash: &sc.AnalyzePlanRequest_SemanticHash{Plan: p}}}).GetSemanticHash().GetResult()
	}
	if hash(a) != hash(b) || hash(a) == hash(c) {
		fail("semantic_hash: equal plans must hash equal, others differ")
	}
	passed("AnalyzePlan semantic_hash")
	_, err = t.analyze(&sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Persist_{
		Persist: &sc.AnalyzePlanRequest_Persist{Relation: sqlRelation("SELECT 1")}}})
	expectSparkError("AnalyzePlan persist: UNIMPLEMENTED (no data is held)", err, codes.Unimplemented, "")

	_, err = t.analyze(&sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Schema_{
		Schema: &sc.AnalyzePlanRequest_Schema{Plan: rootPlan(sqlRelation("SELECT nope FROM tour_orders"))}}})
	expectSparkError("AnalyzePlan of a bad column: UNRESOLVED_COLUMN in ErrorInfo", err, codes.Internal,
		"UNRESOLVED_COLUMN.WITH_SUGGESTION")
	_, err = t.analyze(&sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Schema_{
		Schema: &sc.AnalyzePlanRequest_Schema{Plan: rootPlan(&sc.Relation{})}}})
	if code, _ := sparkError(err); code != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), "rel_type is not set") {
		fail("a relation without a type: %v", err)
	}
	passed("a relation without a type: INVALID_ARGUMENT naming the field")
}

// execute runs one ExecutePlan and returns its responses, checking that the
// stream ends with ResultComplete.
func (t *tour) execute(p *sc.Plan) ([]*sc.ExecutePlanResponse, error) {
	// reattachable, as Spark's clients ask by default: only then does the stream end with ResultComplete
	opts := []*sc.ExecutePlanRequest_RequestOption{{RequestOption: &sc.ExecutePlanRequest_RequestOption_ReattachOptions{
		ReattachOptions: &sc.ReattachOptions{Reattachable: true}}}}
	stream, err := t.spark.ExecutePlan(t.ctx, &sc.ExecutePlanRequest{SessionId: t.sid, UserContext: t.user, Plan: p,
		RequestOptions: opts})
	if err != nil {
		return nil, err
	}
	var out []*sc.ExecutePlanResponse
	for {
		m, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

func (t *tour) executeChecks() {
	cmd := &sc.Plan{OpType: &sc.Plan_Command{Command: &sc.Command{CommandType: &sc.Command_SqlCommand{SqlCommand: &sc.SqlCommand{
		Input: sqlRelation("CREATE TEMPORARY VIEW tour_orders AS SELECT * FROM VALUES (1, 2.50BD), (2, 7.25BD) AS t(id, amount)")}}}}}
	out, err := t.execute(cmd)
	if err != nil {
		fail("ExecutePlan of a SqlCommand: %v", err)
	}
	if len(out) < 2 || out[0].GetSqlCommandResult() == nil || out[len(out)-1].GetResultComplete() == nil {
		fail("ExecutePlan of a command: %d responses, want a SqlCommandResult first and ResultComplete last", len(out))
	}
	for _, m := range out {
		if m.SessionId != t.sid || m.ServerSideSessionId == "" || m.OperationId == "" {
			fail("ExecutePlan response without session/operation ids: %v", m)
		}
	}
	passed("ExecutePlan SqlCommand: SqlCommandResult ... ResultComplete")
	_, err = t.execute(rootPlan(sqlRelation("SELECT 1")))
	expectSparkError("ExecutePlan of a query: UNIMPLEMENTED (analysis only)", err, codes.Unimplemented, "")
}

func (t *tour) releaseChecks() {
	r, err := t.spark.ReleaseSession(t.ctx, &sc.ReleaseSessionRequest{SessionId: t.sid, UserContext: t.user})
	if err != nil || r.SessionId != t.sid {
		fail("ReleaseSession: %v %v", r, err)
	}
	_, err = t.analyze(&sc.AnalyzePlanRequest{Analyze: &sc.AnalyzePlanRequest_Schema_{
		Schema: &sc.AnalyzePlanRequest_Schema{Plan: rootPlan(sqlRelation("SELECT * FROM tour_orders"))}}})
	expectSparkError("ReleaseSession drops the session's views", err, codes.Internal, "TABLE_OR_VIEW_NOT_FOUND")
}

// connectTour runs every check above in a fresh Spark Connect session.
func connectTour(ctx context.Context, conn *grpc.ClientConn) {
	t := &tour{ctx: ctx, spark: sc.NewSparkConnectServiceClient(conn), sid: newUUID(),
		user: &sc.UserContext{UserId: "go-engine"}}
	t.configChecks()
	t.executeChecks()
	t.analyzeChecks()
	t.releaseChecks()
	fmt.Println("connect-tour: done")
}
