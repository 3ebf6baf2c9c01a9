// A Go engine calling catalyzerd with the stock grpc-go stack: stubs come
// straight from the .proto files (protoc-gen-go + protoc-gen-go-grpc),
// nothing hand-written on the wire. The Spark Connect messages are Spark's
// own (spark/connect/*.proto, as an engine that already speaks Spark Connect
// has them), mapped into package czclient/sparkconnect; catalyzer.v1 uses
// them for its plans.
//
// Usage: czclient HOST:PORT
//
// It runs a session Execute (CREATE TEMPORARY VIEW), then a streamed Analyze
// with every rule traced that reads the view in the same session, then a
// stateless Analyze that must fail with a Spark error class; then, as a
// Spark Connect client, AnalyzePlan (schema, explain) of a Connect plan over
// the same session's view, and the same plan through catalyzer.v1 Analyze;
// then the Spark Connect tour (connect_tour.go: every AnalyzePlan kind, every
// Config operation, ExecutePlan, errors, bad plans, ReleaseSession); then the
// operator's conventions (conventions.go: server reflection, gzip, request id
// and trace). Each line it prints is checked by tests/polyglot; it exits
// non-zero on any mismatch.
package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	pb "catalyzer/v1"
	sc "czclient/sparkconnect"

	"google.golang.org/grpc"
)

// newUUID: a random (version 4) UUID, the form Spark Connect session ids take.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		fail("random: %v", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// connectPlan: df.select(col("id"), (col("amount") * 2).as("doubled")) over table "orders",
// as a Spark Connect client builds it.
func connectPlan() *sc.Relation {
	attr := func(name string, planID int64) *sc.Expression {
		return &sc.Expression{ExprType: &sc.Expression_UnresolvedAttribute_{UnresolvedAttribute: &sc.Expression_UnresolvedAttribute{
			UnparsedIdentifier: name, PlanId: &planID}}}
	}
	two := &sc.Expression{ExprType: &sc.Expression_Literal_{Literal: &sc.Expression_Literal{
		LiteralType: &sc.Expression_Literal_Integer{Integer: 2}}}}
	times := &sc.Expression{ExprType: &sc.Expression_UnresolvedFunction_{UnresolvedFunction: &sc.Expression_UnresolvedFunction{
		FunctionName: "*", Arguments: []*sc.Expression{attr("amount", 0), two}}}}
	doubled := &sc.Expression{ExprType: &sc.Expression_Alias_{Alias: &sc.Expression_Alias{Expr: times, Name: []string{"doubled"}}}}
	var zero, one int64 = 0, 1
	read := &sc.Relation{Common: &sc.RelationCommon{PlanId: &zero},
		RelType: &sc.Relation_Read{Read: &sc.Read{ReadType: &sc.Read_NamedTable_{NamedTable: &sc.Read_NamedTable{UnparsedIdentifier: "orders"}}}}}
	return &sc.Relation{Common: &sc.RelationCommon{PlanId: &one},
		RelType: &sc.Relation_Project{Project: &sc.Project{Input: read, Expressions: []*sc.Expression{attr("id", 0), doubled}}}}
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "czclient-go: "+format+"\n", args...)
	os.Exit(1)
}

// analyze runs one streamed Analyze and returns the events and the result,
// checking the stream's shape: events numbered 0, 1, 2, ... then exactly one
// result as the last message.
func analyze(ctx context.Context, c pb.AnalyzerClient, req *pb.AnalyzeRequest) ([]*pb.TraceEvent, *pb.AnalyzeResult) {
	stream, err := c.Analyze(ctx, req)
	if err != nil {
		fail("Analyze: %v", err)
	}
	var events []*pb.TraceEvent
	var result *pb.AnalyzeResult
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail("Analyze stream: %v", err)
		}
		if result != nil {
			fail("a message after the result")
		}
		switch k := msg.Kind.(type) {
		case *pb.AnalyzeResponse_TraceEvent:
			ev := k.TraceEvent
			if int(ev.Sequence) != len(events) {
				fail("event %d arrived with sequence %d", len(events), ev.Sequence)
			}
			events = append(events, ev)
		case *pb.AnalyzeResponse_Result:
			result = k.Result
			if msg.SessionId != req.SessionId {
				fail("session_id echoed as %q, sent %q", msg.SessionId, req.SessionId)
			}
		default:
			fail("a message with neither an event nor a result")
		}
	}
	if result == nil {
		fail("the stream ended without a result")
	}
	return events, result
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: czclient HOST:PORT")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, os.Args[1], grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		fail("dial %s: %v", os.Args[1], err)
	}
	defer conn.Close()
	c := pb.NewAnalyzerClient(conn)
	session := newUUID() // one session for both services

	// Session state: a view over inline rows, created by a statement.
	ex, err := c.Execute(ctx, &pb.ExecuteRequest{SessionId: session,
		Sql: "CREATE TEMPORARY VIEW orders AS SELECT * FROM VALUES (1, 2.50BD), (2, 7.25BD) AS t(id, amount)"})
	if err != nil {
		fail("Execute: %v", err)
	}
	if len(ex.Results) != 1 || !ex.Results[0].Ok {
		fail("Execute results: %v", ex.Results)
	}
	fmt.Printf("execute: ok session=%s\n", ex.SessionId)

	// A traced analysis in the same session that reads the view.
	events, res := analyze(ctx, c, &pb.AnalyzeRequest{SessionId: session,
		Input:      &pb.AnalyzeRequest_Sql{Sql: &pb.SqlQuery{Query: "SELECT id, amount * 2 AS doubled FROM orders WHERE id > 1"}},
		TraceLevel: pb.TraceLevel_TRACE_LEVEL_ALL})
	effective := 0
	for _, ev := range events {
		if ev.Effective {
			effective++
		}
	}
	fmt.Printf("events: %d in order, %d effective\n", len(events), effective)
	for _, ev := range events {
		if ev.Effective {
			fmt.Printf("event %d: %s / %s iteration %d changed %s\n", ev.Sequence, ev.Batch, ev.Rule, ev.Iteration, ev.ChangedKinds)
		}
	}
	if !res.Ok {
		fail("Analyze failed: %s %s", res.Error.GetErrorClass(), res.Error.GetMessage())
	}
	fmt.Printf("result: ok schema=%s\n", res.Schema)
	fmt.Printf("tree:\n%s\n", res.TreeString)

	// A stateless call that must fail with Spark's error class.
	_, bad := analyze(ctx, c, &pb.AnalyzeRequest{
		Input: &pb.AnalyzeRequest_Sql{Sql: &pb.SqlQuery{Query: "SELECT nope FROM orders"}}})
	if bad.Ok || bad.Error == nil {
		fail("a stateless call saw the session's view or did not fail")
	}
	fmt.Printf("error: %s\n", bad.Error.ErrorClass)

	// Spark Connect: AnalyzePlan of a DataFrame plan over the session's view.
	spark := sc.NewSparkConnectServiceClient(conn)
	user := &sc.UserContext{UserId: "go-engine"}
	sr, err := spark.AnalyzePlan(ctx, &sc.AnalyzePlanRequest{SessionId: session, UserContext: user,
		Analyze: &sc.AnalyzePlanRequest_Schema_{Schema: &sc.AnalyzePlanRequest_Schema{Plan: &sc.Plan{
			OpType: &sc.Plan_Root{Root: connectPlan()}}}}})
	if err != nil {
		fail("AnalyzePlan schema: %v", err)
	}
	var cols []string
	for _, f := range sr.GetSchema().GetSchema().GetStruct().GetFields() {
		cols = append(cols, f.Name)
	}
	fmt.Printf("connect schema: %s server_side_session_id=%t\n", strings.Join(cols, ","), sr.ServerSideSessionId != "")
	er, err := spark.AnalyzePlan(ctx, &sc.AnalyzePlanRequest{SessionId: session, UserContext: user,
		Analyze: &sc.AnalyzePlanRequest_Explain_{Explain: &sc.AnalyzePlanRequest_Explain{
			Plan: &sc.Plan{OpType: &sc.Plan_Root{Root: connectPlan()}}, ExplainMode: sc.AnalyzePlanRequest_Explain_EXPLAIN_MODE_EXTENDED}}})
	if err != nil {
		fail("AnalyzePlan explain: %v", err)
	}
	explain := er.GetExplain().GetExplainString()
	at := strings.Index(explain, "== Analyzed Logical Plan ==")
	if at < 0 {
		fail("explain without an analysed section: %s", explain)
	}
	fmt.Printf("connect explain: %s\n", strings.SplitN(explain[at:], "\n", 4)[2])

	// The same Connect plan through catalyzer.v1, with the per-rule trace.
	pevents, pres := analyze(ctx, c, &pb.AnalyzeRequest{SessionId: session,
		Input: &pb.AnalyzeRequest_Plan{Plan: connectPlan()}, TraceLevel: pb.TraceLevel_TRACE_LEVEL_EFFECTIVE})
	if !pres.Ok {
		fail("Analyze of a Connect plan failed: %s %s", pres.Error.GetErrorClass(), pres.Error.GetMessage())
	}
	fmt.Printf("plan: ok schema=%s events=%d\n", pres.Schema, len(pevents))

	drop, err := c.DropSession(ctx, &pb.DropSessionRequest{SessionId: session})
	if err != nil {
		fail("DropSession: %v", err)
	}
	fmt.Printf("drop: existed=%v\n", drop.Existed)

	connectTour(ctx, conn)
	conventionsTour(ctx, conn)
}
