# shellcheck shell=bash
# pki.sh - sourced by scripts/real-cluster.sh: the certificates and kubeconfigs of a start.
# make_pki creates (or reuses) DIR/pki: one CA for serving and client certs, the serving
# certificate, the admin/controller-manager/scheduler/kwok client certs, the service-account
# key pair and the front-proxy CA with its client cert; sign_cert signs one of them;
# write_kubeconfig writes a kubeconfig with an embedded client certificate.

make_pki() {
    local pki=$1
    mkdir -p "$pki"
    if [[ -s $pki/ca.crt && -s $pki/sa.pub && -s $pki/admin.crt && -s $pki/kwok.crt && -s $pki/front-proxy-client.crt ]]; then
        log "reusing PKI in $pki"
        return 0
    fi
    log "creating PKI in $pki"
    (
        cd "$pki"
        umask 077
        # front proxy (requestheader) CA and the apiserver's client cert for aggregated APIs
        openssl ecparam -name prime256v1 -genkey -noout -out front-proxy-ca.key 2>/dev/null
        openssl req -x509 -new -key front-proxy-ca.key -sha256 -days 3650 -subj "/CN=gpuquota-front-proxy-ca" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
            -addext "subjectKeyIdentifier=hash" -out front-proxy-ca.crt 2>/dev/null
        CA=front-proxy-ca sign_cert front-proxy-client ec "/CN=front-proxy-client" clientAuth ""
    )
    [[ -s $pki/ca.crt && -s $pki/sa.pub && -s $pki/admin.crt && -s $pki/kwok.crt ]] && return 0
    (
        cd "$pki"
        umask 077
        # EC P-256 keys (fast to make); RSA for the admin client key and the service-account
        # signing key, like most real clusters
        openssl ecparam -name prime256v1 -genkey -noout -out ca.key 2>/dev/null
        openssl req -x509 -new -key ca.key -sha256 -days 3650 -subj "/CN=gpuquota-real-cluster-ca" \
            -addext "basicConstraints=critical,CA:TRUE" \
            -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
            -addext "subjectKeyIdentifier=hash" -out ca.crt 2>/dev/null
        # service-account token signing key pair
        openssl genrsa -out sa.key 2048 2>/dev/null
        openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
        # serving certificate (kube-apiserver, and reused by controller-manager/scheduler)
        sign_cert serving ec "/CN=kube-apiserver" serverAuth \
            "DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1"
        sign_cert admin rsa "/O=system:masters/CN=kubernetes-admin" clientAuth ""
        sign_cert kube-controller-manager ec "/CN=system:kube-controller-manager" clientAuth ""
        sign_cert kube-scheduler ec "/CN=system:kube-scheduler" clientAuth ""
        sign_cert kwok ec "/O=system:masters/CN=kwok-controller" clientAuth ""
    )
}

# sign_cert NAME rsa|ec SUBJECT EKU SAN (run inside the pki dir)
sign_cert() {
    local name=$1 alg=$2 subj=$3 eku=$4 san=$5 ext usage=digitalSignature
    if [[ $alg == rsa ]]; then
        openssl genrsa -out "$name.key" 2048 2>/dev/null
        usage+=",keyEncipherment"
    else
        openssl ecparam -name prime256v1 -genkey -noout -out "$name.key" 2>/dev/null
    fi
    openssl req -new -key "$name.key" -subj "$subj" -out "$name.csr" 2>/dev/null
    ext="basicConstraints=critical,CA:FALSE
keyUsage=critical,$usage
extendedKeyUsage=$eku
authorityKeyIdentifier=keyid
subjectKeyIdentifier=hash"
    [[ -n $san ]] && ext+=$'\n'"subjectAltName=$san"
    openssl x509 -req -in "$name.csr" -CA "${CA:-ca}.crt" -CAkey "${CA:-ca}.key" -sha256 -days 3650 \
        -set_serial "0x$(openssl rand -hex 16)" -extfile <(printf '%s\n' "$ext") \
        -out "$name.crt" 2>/dev/null
    rm -f "$name.csr"
}

# write_kubeconfig FILE CONTEXT CERTNAME SERVER PKIDIR
write_kubeconfig() {
    local file=$1 ctx=$2 cert=$3 server=$4 pki=$5
    local tmp="$file.tmp"
    cat >"$tmp" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: gpuquota-real-cluster
  cluster:
    server: $server
    certificate-authority-data: $(base64 -w0 <"$pki/ca.crt")
users:
- name: $ctx
  user:
    client-certificate-data: $(base64 -w0 <"$pki/$cert.crt")
    client-key-data: $(base64 -w0 <"$pki/$cert.key")
contexts:
- name: $ctx
  context:
    cluster: gpuquota-real-cluster
    user: $ctx
current-context: $ctx
EOF
    chmod 600 "$tmp"
    mv "$tmp" "$file"
}
