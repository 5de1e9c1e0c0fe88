#include "core/jobs/jobtracker.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QPointer>
#include <QThread>
#include <QWaitCondition>

#include <deque>

namespace gq {

struct JobWait::Held {
    struct Item {
        QPointer<QObject> receiver;
        std::function<void()> fn;
    };
    QThread *thread = nullptr;
    Held *outer = nullptr;  // a JobWait further up this thread's stack, if any
    std::deque<Item> items; // guarded by registryMutex()
    QWaitCondition arrived;
};

namespace {
QMutex &registryMutex() {
    static QMutex m;
    return m;
}
// The JobWait of each thread that has one; guarded by registryMutex().
QHash<QThread *, JobWait::Held *> &registry() {
    static QHash<QThread *, JobWait::Held *> r;
    return r;
}
} // namespace

void jobdetail::deliver(QObject *receiver, std::function<void()> fn) {
    {
        QMutexLocker lock(&registryMutex());
        if (JobWait::Held *held = registry().value(receiver->thread())) {
            held->items.push_back({QPointer<QObject>(receiver), std::move(fn)});
            held->arrived.wakeAll();
            return;
        }
    }
    QMetaObject::invokeMethod(receiver, std::move(fn), Qt::QueuedConnection);
}

JobWait::JobWait()
    : d(std::make_unique<Held>()) {
    d->thread = QThread::currentThread();
    QMutexLocker lock(&registryMutex());
    d->outer = registry().value(d->thread);
    registry().insert(d->thread, d.get());
}

JobWait::~JobWait() {
    std::deque<Held::Item> left;
    {
        QMutexLocker lock(&registryMutex());
        if (d->outer) { // what is left is the outer wait's to run
            registry().insert(d->thread, d->outer);
            for (Held::Item &item : d->items)
                d->outer->items.push_back(std::move(item));
            return;
        }
        registry().remove(d->thread);
        left.swap(d->items);
    }
    for (Held::Item &item : left)
        if (item.receiver)
            QMetaObject::invokeMethod(item.receiver.data(), std::move(item.fn), Qt::QueuedConnection);
}

bool JobWait::until(const std::function<bool()> &done, int timeoutMs) {
    const QDeadlineTimer deadline(timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever)
                                                : QDeadlineTimer(timeoutMs));
    while (!done()) {
        Held::Item item;
        {
            QMutexLocker lock(&registryMutex());
            while (d->items.empty())
                if (!d->arrived.wait(&registryMutex(), deadline))
                    return false;
            item = std::move(d->items.front());
            d->items.pop_front();
        }
        if (item.receiver) // the tracker rechecks its own receiver and generation
            item.fn();
    }
    return true;
}

} // namespace gq
