#pragma once

namespace gq::tc {

class ApiServer;

// Seeds the demo scenario's Kueue objects (kueuedemo.cpp); the team namespaces must exist.
void kueueDemo(ApiServer &server);

} // namespace gq::tc
