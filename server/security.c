/* TLS contexts, tokens and the start-up announcement (see security.h). */
#include "security.h"

#include "auth.h"
#include "log.h"
#include "tls.h"

/* TLS contexts for both ports and the token table, from the flags. */
int security_setup(Server *srv) {
    const Config *cfg = &srv->cfg;
    char err[512];
    if (cfg->tls_cert[0]) {
        const char *ca = cfg->tls_client_ca[0] ? cfg->tls_client_ca : NULL;
        srv->tls_grpc = tls_context_new(cfg->tls_cert, cfg->tls_key, ca, "h2", err, sizeof err);
        if (srv->tls_grpc && cfg->http_host[0])
            srv->tls_http = tls_context_new(cfg->tls_cert, cfg->tls_key, ca, "h2,http/1.1", err, sizeof err);
        if (!srv->tls_grpc || (cfg->http_host[0] && !srv->tls_http)) {
            log_json(LOG_DEBUG, LOG_ERROR, "cannot set up TLS", json_pack("{s:s}", "error", err));
            return -1;
        }
    }
    if (cfg->auth_token_file[0]) {
        srv->tokens = auth_tokens_load(cfg->auth_token_file, err, sizeof err);
        if (!srv->tokens) {
            log_json(LOG_DEBUG, LOG_ERROR, "cannot load --auth-token-file", json_pack("{s:s}", "error", err));
            return -1;
        }
    }
    return 0;
}

void security_free(Server *srv) {
    tls_context_free(srv->tls_grpc);
    tls_context_free(srv->tls_http);
    auth_tokens_free(srv->tokens);
}

/* The line after "listening": how callers are checked, in words. */
void security_announce(Server *srv) {
    const Config *cfg = &srv->cfg;
    bool tls = srv->tls_grpc != NULL, mutual = tls && tls_context_mutual(srv->tls_grpc), tokens = srv->tokens != NULL;
    json_t *f = json_pack("{s:b,s:b,s:s,s:i}", "tls", tls, "mutual_tls", mutual, "auth",
                          tokens ? "bearer-token" : mutual ? "client-certificate" : "none", "principals",
                          (int)auth_tokens_count(srv->tokens));
    if (!tls && !tokens) {
        log_json(cfg->log_level, LOG_WARN, "no TLS and no authentication: listening on loopback only", f);
        return;
    }
    if (tokens && !tls && !(config_is_loopback(cfg->grpc_host) && (!cfg->http_host[0] || config_is_loopback(cfg->http_host)))) {
        log_json(cfg->log_level, LOG_WARN, "bearer tokens travel in cleartext: add --tls-cert and --tls-key", f);
        return;
    }
    if (tls && !tokens && !mutual) {
        log_json(cfg->log_level, LOG_WARN, "TLS without authentication: any client that can connect may call", f);
        return;
    }
    log_json(cfg->log_level, LOG_INFO, "security", f);
}

