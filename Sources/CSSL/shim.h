#ifndef IMSH_CSSL_SHIM_H
#define IMSH_CSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/sha.h>
#include <openssl/rand.h>

/* Function forms of OpenSSL macros, which Swift cannot call. */
static inline int imsh_ssl_ctx_set_min_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long imsh_ssl_ctx_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}
static inline int imsh_ssl_set_sni(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}
static inline long imsh_ssl_ctx_set_options(SSL_CTX *ctx, long options) {
    return (long)SSL_CTX_set_options(ctx, (uint64_t)options);
}
static inline unsigned long imsh_xn_flag_rfc2253(void) { return XN_FLAG_RFC2253; }
static inline int imsh_ssl_version_tls1_2(void) { return TLS1_2_VERSION; }
static inline long imsh_ssl_mode_partial_writes(void) {
    return SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS;
}
static inline long imsh_ssl_op_no_renegotiation(void) { return SSL_OP_NO_RENEGOTIATION; }

/* A new ECDSA P-256 key (EVP_EC_gen is a macro over a variadic function). */
static inline EVP_PKEY *imsh_ec_p256_key(void) { return EVP_EC_gen("P-256"); }

/* Picks "mqtt" when the client offers it; no ALPN otherwise (clients that offer none still connect). */
static inline int imsh_alpn_select_mqtt(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                        const unsigned char *in, unsigned int inlen, void *arg) {
    static const unsigned char mqtt[] = {4, 'm', 'q', 't', 't'};
    (void)ssl; (void)arg;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto((unsigned char **)&selected, outlen, mqtt, sizeof mqtt, in, inlen)
        == OPENSSL_NPN_NEGOTIATED) {
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
    }
    return SSL_TLSEXT_ERR_NOACK;
}
static inline void imsh_ssl_ctx_select_mqtt(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, imsh_alpn_select_mqtt, NULL);
}
#endif
