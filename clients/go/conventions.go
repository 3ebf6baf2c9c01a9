// The operator's conventions as a grpc-go client meets them: server
// reflection through grpc-go's own v1alpha stubs (what grpcurl and
// grpc-go's reflection clients speak), the reflected FileDescriptorProtos
// turned into a protoregistry and a dynamic message the generated stubs read
// back; gzip compression through grpc-go's encoding/gzip; x-request-id and
// traceparent through outgoing metadata, read back from the response
// headers. Each check prints one "conventions ok: NAME" line (checked by
// tests/polyglot/run_client.py) or fails.
package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	pb "catalyzer/v1"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding/gzip"
	"google.golang.org/grpc/metadata"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1alpha"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

func conventionsTour(ctx context.Context, conn *grpc.ClientConn) {
	rc := rpb.NewServerReflectionClient(conn)
	stream, err := rc.ServerReflectionInfo(ctx)
	if err != nil {
		fail("ServerReflectionInfo: %v", err)
	}
	ask := func(req *rpb.ServerReflectionRequest) *rpb.ServerReflectionResponse {
		if err := stream.Send(req); err != nil {
			fail("reflection send: %v", err)
		}
		resp, err := stream.Recv()
		if err != nil {
			fail("reflection recv: %v", err)
		}
		return resp
	}

	// list_services: the five served services.
	ls := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_ListServices{ListServices: ""}})
	var names []string
	for _, s := range ls.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	sort.Strings(names)
	want := "catalyzer.v1.Analyzer,grpc.health.v1.Health,grpc.reflection.v1.ServerReflection," +
		"grpc.reflection.v1alpha.ServerReflection,spark.connect.SparkConnectService"
	if strings.Join(names, ",") != want {
		fail("reflection list_services: %v", names)
	}
	fmt.Printf("conventions ok: reflection list_services %s\n", strings.Join(names, ","))

	// file_containing_symbol, on the same stream: the file and its imports
	// make a registry that resolves the service and its messages.
	fr := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{
		FileContainingSymbol: "catalyzer.v1.Analyzer"}})
	set := &descriptorpb.FileDescriptorSet{}
	for _, raw := range fr.GetFileDescriptorResponse().GetFileDescriptorProto() {
		fd := &descriptorpb.FileDescriptorProto{}
		if err := proto.Unmarshal(raw, fd); err != nil {
			fail("reflection: a FileDescriptorProto does not unmarshal: %v", err)
		}
		set.File = append(set.File, fd)
	}
	if len(set.File) == 0 || set.File[0].GetName() != "catalyzer.proto" {
		fail("reflection file_containing_symbol: %d files", len(set.File))
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		fail("reflection: protodesc.NewFiles: %v", err)
	}
	d, err := files.FindDescriptorByName("catalyzer.v1.Analyzer")
	if err != nil {
		fail("reflection: no catalyzer.v1.Analyzer: %v", err)
	}
	svc := d.(protoreflect.ServiceDescriptor)
	an := svc.Methods().ByName("Analyze")
	if an == nil || !an.IsStreamingServer() || an.IsStreamingClient() {
		fail("reflection: Analyze is not a server-streaming method (%d methods)", svc.Methods().Len())
	}
	for _, m := range []string{"Execute", "RegisterCatalog", "DropSession", "ListFunctions", "InvalidateTable"} {
		if svc.Methods().ByName(protoreflect.Name(m)) == nil {
			fail("reflection: Analyzer has no method %s (%d methods)", m, svc.Methods().Len())
		}
	}
	fmt.Printf("conventions ok: reflection descriptors %d files, Analyzer %d methods, Analyze server-streaming\n",
		len(set.File), svc.Methods().Len())

	// A request built from the reflected descriptor alone reads back in the generated stubs.
	md := an.Input()
	dyn := dynamicpb.NewMessage(md)
	sqlField := md.Fields().ByName("sql")
	sq := dynamicpb.NewMessage(sqlField.Message())
	sq.Set(sqlField.Message().Fields().ByName("query"), protoreflect.ValueOfString("SELECT 1 AS a"))
	dyn.Set(sqlField, protoreflect.ValueOfMessage(sq))
	wire, err := proto.Marshal(dyn)
	if err != nil {
		fail("dynamic marshal: %v", err)
	}
	var req pb.AnalyzeRequest
	if err := proto.Unmarshal(wire, &req); err != nil || req.GetSql().GetQuery() != "SELECT 1 AS a" {
		fail("dynamic AnalyzeRequest does not read back: %v %v", err, req.GetSql())
	}
	nf := ask(&rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: "no/such.proto"}})
	if nf.GetErrorResponse().GetErrorCode() != 5 {
		fail("reflection: an unknown file is not NOT_FOUND: %v", nf)
	}
	if err := stream.CloseSend(); err != nil {
		fail("reflection CloseSend: %v", err)
	}
	if _, err := stream.Recv(); err != io.EOF {
		fail("reflection: the stream did not end OK after CloseSend: %v", err)
	}
	fmt.Printf("conventions ok: reflection dynamic request, NOT_FOUND, clean end\n")

	// gzip both ways, with the client's request id and trace.
	c := pb.NewAnalyzerClient(conn)
	const trace = "0af7651916cd43dd8448eb211c80319c"
	octx := metadata.AppendToOutgoingContext(ctx, "x-request-id", "go-client-1",
		"traceparent", "00-"+trace+"-b7ad6b7169203331-01")
	var hdr metadata.MD
	st, err := c.Analyze(octx, &req, grpc.UseCompressor(gzip.Name), grpc.Header(&hdr))
	if err != nil {
		fail("gzip Analyze: %v", err)
	}
	var last *pb.AnalyzeResponse
	for {
		m, err := st.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail("gzip Analyze recv: %v", err)
		}
		last = m
	}
	if last == nil || !last.GetResult().GetOk() || last.GetResult().GetSchema() != "struct<a:int>" {
		fail("gzip Analyze result: %v", last)
	}
	if last.GetRequestId() != "go-client-1" {
		fail("request_id %q, not the client's", last.GetRequestId())
	}
	rid, tr := hdr.Get("x-request-id"), hdr.Get("traceresponse")
	if len(rid) != 1 || rid[0] != "go-client-1" || len(tr) != 1 || !strings.HasPrefix(tr[0], "00-"+trace+"-") {
		fail("response headers: x-request-id %v traceresponse %v", rid, tr)
	}
	if enc := hdr.Get("grpc-encoding"); len(enc) > 0 && enc[0] != "gzip" {
		fail("grpc-encoding %v", enc)
	}
	fmt.Printf("conventions ok: gzip Analyze, x-request-id and traceresponse echoed\n")
}
