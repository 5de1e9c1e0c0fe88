#include "widgets/quotas/limitrangepage.h"

#include "models/quotas/limitrangemodel.h"
#include "core/domain/limitrangespec.h"
#include "widgets/editor/yamleditor.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gq {

namespace {
QList<LimitRangeRow> rowsOf(const QList<StoredObject> &objects) {
    QList<LimitRangeRow> rows;
    for (const StoredObject &o : objects) {
        auto spec = LimitRangeSpec::fromJson(o.object);
        if (!spec)
            continue;
        for (const LimitRangeItem &item : spec->limits) {
            QStringList resources;
            for (const ResourceList *l :
                 {&item.min, &item.max, &item.defaultLimit, &item.defaultRequest, &item.maxLimitRequestRatio})
                for (const QString &n : l->names())
                    if (!resources.contains(n))
                        resources << n;
            for (const QString &r : resources) {
                auto text = [&](const ResourceList &l) {
                    const auto v = l.value(r);
                    return v ? v->toString() : QString();
                };
                rows << LimitRangeRow{o.name,
                                      item.type,
                                      r,
                                      text(item.min),
                                      text(item.max),
                                      text(item.defaultLimit),
                                      text(item.defaultRequest),
                                      text(item.maxLimitRequestRatio)};
            }
        }
    }
    return rows;
}
} // namespace

LimitRangePage::LimitRangePage(DraftStore *drafts, QWidget *parent)
    : ObjectPage(drafts, ApplyFlow::Kind::LimitRange, parent)
    , m_model(new LimitRangeModel(this))
    , m_table(new QTableView(this))
    , m_empty(new QLabel(this)) {
    m_objects->setObjectName(QStringLiteral("limitRangeObjectCombo"));
    m_template->setObjectName(QStringLiteral("limitRangeTemplateButton"));
    m_table->setObjectName(QStringLiteral("limitRangeTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    // At the default window size every column must show whole ("Default limit" was
    // clipped) and rows stay one line: the numbers take what they need, the object
    // name takes the rest and elides.
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    QHeaderView *header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setTextElideMode(Qt::ElideRight);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(LimitRangeModel::ObjectColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(48);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_editor->setObjectName(QStringLiteral("limitRangeYamlEditor"));
    m_draftBar->setObjectName(QStringLiteral("limitRangeDraftOfferBar"));
    m_empty->setObjectName(QStringLiteral("limitRangeEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->hide();
    m_revert->setObjectName(QStringLiteral("limitRangeRevertButton"));
    m_apply->setObjectName(QStringLiteral("limitRangeApplyButton"));

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_editor);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(makeTopRow(tr("LimitRange:")));
    layout->addWidget(m_empty);
    layout->addWidget(m_draftBar);
    layout->addWidget(split, 1);
    layout->addLayout(makeBottomRow());
    updateControls();
}

QList<StoredObject> LimitRangePage::objectsIn(const QString &ns) const {
    return session() ? session()->limitRangesIn(ns) : QList<StoredObject>();
}

std::optional<StoredObject> LimitRangePage::objectNamed(const QString &ns, const QString &name) const {
    return session() ? session()->limitRange(ns, name) : std::nullopt;
}

// The table shows every LimitRange of the namespace, so any change to one refreshes it.
void LimitRangePage::namespaceObjectsChanged() {
    const QList<StoredObject> objects = objectsIn(namespaceName());
    m_model->setRows(rowsOf(objects));
    m_empty->setVisible(objects.isEmpty());
    m_empty->setText(
        namespaceName().isEmpty()
            ? tr("Select a namespace on the left.")
            : tr("Namespace %1 has no LimitRange. Create one from a template.").arg(namespaceName()));
}

void LimitRangePage::showBase(const QJsonObject &object) {
    Q_UNUSED(object) // the table lists them all; the editor already holds this one
}

QString LimitRangePage::denyUpdateText(const EditPermissions &p) const {
    Q_UNUSED(p)
    return tr("You may not update LimitRanges in %1 (SelfSubjectAccessReview denied).").arg(namespaceName());
}

QString LimitRangePage::denyCreateText() const {
    return tr("You may not create LimitRanges in %1.").arg(namespaceName());
}

QString LimitRangePage::noObjectText() const {
    return tr("No LimitRange selected");
}

} // namespace gq
