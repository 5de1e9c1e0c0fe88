// Precompiled for the widget targets (cmake/PrecompiledHeaders.cmake): Qt Core's
// set plus the Qt Widgets headers most pages and dialogs include.
#pragma once

#include "cmake/pch/qtcore_pch.h"

#include <QAbstractItemModel>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidget>
