#pragma once

#include <QCoreApplication>
#include <QFuture>
#include <QPointer>

#include <utility>

namespace gq {

// Delivers a future's result to `fn` on the GUI thread, only while `context` is
// alive. Qt 6.4's QFuture::then(context, ...) asserts when the context dies before
// the result arrives (a closed dialog, a switched context); this drops it instead.
template <typename T, typename Fn> void whenReady(QFuture<T> future, QObject *context, Fn fn) {
    QPointer<QObject> guard(context);
    future.then([guard, fn = std::move(fn)](const T &value) mutable {
        QCoreApplication *app = QCoreApplication::instance();
        if (!app)
            return;
        QMetaObject::invokeMethod(
            app,
            [guard, fn = std::move(fn), value]() mutable {
                if (guard)
                    fn(value);
            },
            Qt::QueuedConnection);
    });
}

} // namespace gq
